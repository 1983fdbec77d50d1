/**
 * Tickers of a watch list. A watched symbol the exchange refuses (delisted, unknown: whatever
 * the dialect reads as a refusal of a symbol) is left out of the records, so it reads as
 * missing, and named in `refused`; the other symbols are read as usual.
 */
import type { RecordIssue, TickerRecord } from '../snapshot/model';
import type { Parsed } from './read';

/** One answer a fetch read: its request's path (unsigned, as LastAnswers keys it) and its bytes (decoded, as the dialect read them). */
export interface AnswerText {
  path: string;
  body: Buffer;
}

/**
 * How a watch-list fetch made its records of its answers, so that they can be made again from
 * the same answers (a replay): `parts`, every answer is a part of the watch list, joined in
 * order (joinParts); `all`, the last answer is one for every symbol and the watch list is
 * picked out of it (pickWatched), the answers before it set aside.
 */
export type WatchAssembly =
  | { how: 'parts'; symbols: readonly string[]; refused: readonly string[]; reorder: boolean }
  | { how: 'all'; symbols: readonly string[] };

/** The answers of one fetch, in the order they were read, and how its records were made of them (none: the one answer is the records). */
export interface AnswerTexts {
  answers: AnswerText[];
  watch?: WatchAssembly;
}

export interface FetchResult<T> extends Parsed<T> {
  /** Bytes received over all requests of this fetch. */
  bytes: number;
  requests: number;
  /** Watched symbols the exchange refused; absent from the records, so missing. */
  refused?: string[];
  /** Every answer of this fetch had exactly the bytes of the same request's last answer: the records are that answer's, not read again. */
  unchanged?: boolean;
  /** The answers the records were read from, for a recording. */
  texts: AnswerTexts;
}

/** Records of a watch list: those read, and the watched symbols the exchange refused. */
export type Watched = Pick<FetchResult<TickerRecord>, 'records' | 'issues' | 'refused'>;

/** How the watch list reaches the exchange. */
export interface TickerRequests {
  /** One request for these symbols (at most the cap). */
  some(symbols: readonly string[]): Promise<FetchResult<TickerRecord>>;
  /** One request for every symbol. */
  all(): Promise<FetchResult<TickerRecord>>;
  /** Whether `some` failed because the exchange refused a symbol it names. */
  refusesSymbols(err: unknown): boolean;
}

/** The state of one watch-list fetch while refused symbols are narrowed down. */
interface Narrowing {
  source: TickerRequests;
  /** Requests answered with records, in order. */
  parts: FetchResult<TickerRecord>[];
  refused: string[];
  /** Requests sent, answered or refused. */
  requests: number;
  /** Halvings left. */
  left: number;
}

/** Thrown inside a fetch when finding refused symbols one by one would cost more than the budget allows. */
class NarrowingTooCostly extends Error {
  override readonly name = 'NarrowingTooCostly';
}

/**
 * The records of a watch list read in parts, in the order of the parts. `reorder`: the parts
 * did not ask in the watch list's order (the symbols refused last time went last, or a part
 * was halved), so the records are sorted into it (a symbol it does not name goes last).
 */
export function joinParts(symbols: readonly string[], parts: readonly Parsed<TickerRecord>[], refused: readonly string[], reorder: boolean): Watched {
  const records = parts.flatMap((p) => p.records);
  const issues = parts.flatMap((p) => p.issues);
  if (reorder) {
    const at = new Map(symbols.map((s, i) => [s, i]));
    records.sort((a, b) => (at.get(a.symbol) ?? symbols.length) - (at.get(b.symbol) ?? symbols.length));
  }
  return { records, issues, ...(refused.length > 0 && { refused: [...refused] }) };
}

/** The watch list picked out of one answer for every symbol; a watched symbol not in it (nor set aside as malformed) is refused. */
export function pickWatched(symbols: readonly string[], all: Parsed<TickerRecord>): Watched {
  const bySymbol = new Map(all.records.map((t) => [t.symbol, t]));
  const records: TickerRecord[] = [];
  for (const s of symbols) {
    const t = bySymbol.get(s);
    if (t !== undefined) records.push(t);
  }
  const wanted = new Set(symbols);
  const issues = all.issues.filter((i: RecordIssue) => i.symbol === undefined || wanted.has(i.symbol));
  const malformed = new Set(issues.map((i) => i.symbol));
  const refused = symbols.filter((s) => !bySymbol.has(s) && !malformed.has(s));
  return { records, issues, ...(refused.length > 0 && { refused }) };
}

/** One exchange's watch list, with the symbols it refused on the last fetch. */
export class WatchList {
  private refused: ReadonlySet<string> = new Set();

  /** `cap`: the most symbols one request may name; 0 when the exchange has no such request. */
  constructor(private readonly cap: number) {}

  /**
   * Tickers of `symbols` in the order given. A 4xx that refuses a symbol is narrowed down by
   * halving the request, at most `halvings` times (each costs up to two requests).
   */
  async fetch(symbols: readonly string[], source: TickerRequests, halvings: number): Promise<FetchResult<TickerRecord>> {
    const run: Narrowing = { source, parts: [], refused: [], requests: 0, left: halvings };
    if (this.cap <= 0) return this.fromAll(symbols, run);
    // Symbols refused last time go in requests of their own, so a delisted symbol costs a
    // request or two per poll instead of a narrowing down of the whole watch list.
    const suspects = symbols.filter((s) => this.refused.has(s));
    const rest = suspects.length === 0 ? symbols : symbols.filter((s) => !this.refused.has(s));
    try {
      for (const list of [rest, suspects]) {
        for (let i = 0; i < list.length; i += this.cap) await this.fetchSymbols(list.slice(i, i + this.cap), false, run);
      }
    } catch (err) {
      if (!(err instanceof NarrowingTooCostly)) throw err;
      // Too many refused symbols to find them one by one within the weight budget: one
      // request for every symbol tells which are there.
      return this.fromAll(symbols, run);
    }
    if (run.parts.length === 0) {
      // Not one symbol answered: a 4xx to every request may be about the request, not the
      // symbols (a blocked path, a changed API). One request for every symbol tells, and
      // fails the poll when it fails too, rather than reading the whole list as missing.
      return this.fromAll(symbols, run);
    }
    this.refused = new Set(run.refused);
    const reorder = suspects.length > 0 || run.refused.length > 0;
    return {
      ...joinParts(symbols, run.parts, run.refused, reorder),
      bytes: run.parts.reduce((n, p) => n + p.bytes, 0),
      requests: run.requests,
      texts: { answers: run.parts.flatMap((p) => p.texts.answers), watch: { how: 'parts', symbols, refused: [...run.refused], reorder } },
    };
  }

  /**
   * One request for `chunk`; when refused, its two halves, down to the symbols at fault.
   * `failed`: this list is already known to be refused (its whole was), so it is not asked again.
   */
  private async fetchSymbols(chunk: readonly string[], failed: boolean, run: Narrowing): Promise<boolean> {
    if (!failed) {
      run.requests += 1;
      try {
        run.parts.push(await run.source.some(chunk));
        return true;
      } catch (err) {
        if (!run.source.refusesSymbols(err)) throw err;
      }
    }
    if (chunk.length === 1) {
      run.refused.push(chunk[0] as string);
      return false;
    }
    if (run.left <= 0) throw new NarrowingTooCostly();
    run.left -= 1;
    const mid = Math.ceil(chunk.length / 2);
    const firstOk = await this.fetchSymbols(chunk.slice(0, mid), false, run);
    // When the first half was answered whole, the fault is in the second: no need to ask for it whole.
    await this.fetchSymbols(chunk.slice(mid), firstOk, run);
    return false;
  }

  /** The watch list picked out of one request for every symbol (the parts read before it only counted). */
  private async fromAll(symbols: readonly string[], run: Narrowing): Promise<FetchResult<TickerRecord>> {
    const all = await run.source.all();
    const picked = pickWatched(symbols, all);
    this.refused = new Set(picked.refused ?? []);
    return {
      ...picked,
      bytes: run.parts.reduce((n, p) => n + p.bytes, 0) + all.bytes,
      requests: run.requests + 1,
      texts: { answers: [...run.parts, all].flatMap((p) => p.texts.answers), watch: { how: 'all', symbols } },
    };
  }
}
