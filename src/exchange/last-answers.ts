/**
 * The last answer to each request path, so that work follows change (DESIGN.md section 2): its
 * bytes and what it decoded to. An answer whose bytes are the same costs a native comparison
 * as they arrive (http.ts), and is neither joined, made text, parsed nor validated: a coin list
 * rarely changes between polls, and reading 4 MB again cost 40-60 ms each poll.
 */
import type { Parsed } from './read';

/** Request paths kept at most (the coins, the tickers, the parts of a long watch list). */
const MAX_PATHS = 64;

/** The last answer decoded: its bytes (and its compressed bytes, when it came compressed), and what it decoded to. */
export interface LastAnswer {
  raw: Buffer;
  wire?: Buffer | undefined;
  result: Parsed<unknown>;
}

export class LastAnswers {
  private readonly paths = new Map<string, LastAnswer>();

  /** The last answer to `path` decoded: the next answer's bytes are compared with its bytes as they arrive. */
  get(path: string): Readonly<LastAnswer> | undefined {
    return this.paths.get(path);
  }

  /** The answer to `path`, bytes `raw` (`wire` compressed), decoded to `result` (without its bytes nothing is kept to compare with). */
  keep(path: string, result: Parsed<unknown>, raw: Buffer | undefined, wire?: Buffer): void {
    if (raw === undefined) {
      this.paths.delete(path);
      return;
    }
    if (!this.paths.has(path) && this.paths.size >= MAX_PATHS) this.paths.clear();
    this.paths.set(path, { raw, wire, result });
  }

  /** The last answer to `path` came again, compressed as `wire`. */
  rewire(path: string, wire: Buffer): void {
    const last = this.paths.get(path);
    if (last !== undefined) last.wire = wire;
  }
}
