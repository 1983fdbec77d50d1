/**
 * What the client keeps of each request path's last answer, so that work follows change
 * (DESIGN.md section 2): its bytes and what it decoded to (an answer whose bytes are the same
 * costs a native comparison as they arrive, and is neither joined, made text, parsed nor
 * validated: a coin list rarely changes between polls, and reading 4 MB again cost 40-60 ms each
 * poll), and the memory of its records
 * by their text (in a changed answer, a record whose text is unchanged is taken as it was,
 * neither parsed nor validated: decode-records.ts).
 */
import { answerMemory, type AnswerMemory } from './decode-records';
import type { Parsed } from './read';

/** Request paths kept at most (the coins, the tickers, the parts of a long watch list). */
const MAX_PATHS = 64;

/** The last answer decoded: its bytes (and its compressed bytes, when it came compressed), and what it decoded to. */
interface Last {
  raw: Buffer;
  wire?: Buffer | undefined;
  result: Parsed<unknown>;
}

interface Kept {
  last?: Last;
  memory: AnswerMemory;
}

export class KeptAnswers {
  private readonly paths = new Map<string, Kept>();

  /** The last answer to `path` decoded (its bytes, what it decoded to): the next answer's bytes are compared with these as they arrive (http.ts). */
  last(path: string): Readonly<Last> | undefined {
    return this.paths.get(path)?.last;
  }

  /** The memory of `path`'s records, for the decode of its next answer. */
  memory(path: string): AnswerMemory {
    return this.kept(path).memory;
  }

  /** The answer to `path`, bytes `raw` (`wire` compressed), decoded to `result` (without its bytes nothing is kept to compare with). */
  keep(path: string, result: Parsed<unknown>, raw: Buffer | undefined, wire?: Buffer): void {
    const kept = this.kept(path);
    if (raw === undefined) delete kept.last;
    else kept.last = { raw, wire, result };
  }

  /** The last answer to `path` came again, compressed as `wire`. */
  rewire(path: string, wire: Buffer): void {
    const last = this.paths.get(path)?.last;
    if (last !== undefined) last.wire = wire;
  }

  private kept(path: string): Kept {
    let kept = this.paths.get(path);
    if (kept === undefined) {
      if (this.paths.size >= MAX_PATHS) this.paths.clear();
      this.paths.set(path, (kept = { memory: answerMemory() }));
    }
    return kept;
  }
}
