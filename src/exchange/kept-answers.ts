/**
 * What the client keeps of each request path's last answer, so that work follows change
 * (DESIGN.md section 2): its text and what it decoded to (an answer whose text is the same
 * costs a comparison, a native one of flat strings: a coin list rarely changes between polls,
 * and parsing and validating 4 MB again cost 40-60 ms each poll), and the memory of its records
 * by their text (in a changed answer, a record whose text is unchanged is taken as it was,
 * neither parsed nor validated: decode-records.ts).
 */
import { answerMemory, type AnswerMemory } from './decode-records';
import type { Parsed } from './read';

/** Request paths kept at most (the coins, the tickers, the parts of a long watch list). */
const MAX_PATHS = 64;

interface Kept {
  /** The last answer decoded (its text, and its bytes when given), and what it decoded to. */
  last?: { text: string; raw?: Buffer | undefined; result: Parsed<unknown> };
  memory: AnswerMemory;
}

export class KeptAnswers {
  private readonly paths = new Map<string, Kept>();

  /** What the last answer to `path` decoded to, when `text` is exactly its text. */
  same(path: string, text: string): Parsed<unknown> | undefined {
    const last = this.paths.get(path)?.last;
    return last !== undefined && last.text === text ? last.result : undefined;
  }

  /** The last answer to `path` decoded (its text, its bytes when kept, what it decoded to). */
  last(path: string): Readonly<{ text: string; raw?: Buffer | undefined; result: Parsed<unknown> }> | undefined {
    return this.paths.get(path)?.last;
  }

  /** The memory of `path`'s records, for the decode of its next answer. */
  memory(path: string): AnswerMemory {
    return this.kept(path).memory;
  }

  /** `text` (bytes `raw`), the answer to `path`, decoded to `result`. */
  keep(path: string, text: string, result: Parsed<unknown>, raw?: Buffer): void {
    this.kept(path).last = { text, raw, result };
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
