/**
 * Tickers of a watch list. A watched symbol the exchange refuses (delisted, unknown: whatever
 * the dialect reads as a refusal of a symbol) is left out of the records, so it reads as
 * missing, and named in `refused`; the other symbols are read as usual.
 */
import type { RecordIssue, TickerRecord } from '../snapshot/model';
import type { Parsed } from './read';

export interface FetchResult<T> extends Parsed<T> {
  /** Bytes received over all requests of this fetch. */
  bytes: number;
  requests: number;
  /** Watched symbols the exchange refused; absent from the records, so missing. */
  refused?: string[];
  /** Every answer of this fetch had exactly the bytes of the same request's last answer: the records are that answer's, not read again. */
  unchanged?: boolean;
}

/** How the watch list reaches the exchange. */
export interface TickerSource {
  /** One request for these symbols (at most the cap). */
  some(symbols: readonly string[]): Promise<FetchResult<TickerRecord>>;
  /** One request for every symbol. */
  all(): Promise<FetchResult<TickerRecord>>;
  /** Whether `some` failed because the exchange refused a symbol it names. */
  refusesSymbols(err: unknown): boolean;
}

/** The state of one watch-list fetch while refused symbols are narrowed down. */
interface Narrowing {
  source: TickerSource;
  result: FetchResult<TickerRecord>;
  refused: string[];
  /** Requests answered with records. */
  answered: number;
  /** Halvings left. */
  left: number;
}

/** Thrown inside a fetch when finding refused symbols one by one would cost more than the budget allows. */
class NarrowingTooCostly extends Error {
  override readonly name = 'NarrowingTooCostly';
}

/** Sorts records into the order of the watch list (a symbol it does not name goes last). */
function inOrderOf(symbols: readonly string[], records: TickerRecord[]): void {
  const at = new Map(symbols.map((s, i) => [s, i]));
  records.sort((a, b) => (at.get(a.symbol) ?? symbols.length) - (at.get(b.symbol) ?? symbols.length));
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
  async fetch(symbols: readonly string[], source: TickerSource, halvings: number): Promise<FetchResult<TickerRecord>> {
    const empty = (): FetchResult<TickerRecord> => ({ records: [], issues: [], bytes: 0, requests: 0 });
    if (this.cap <= 0) return this.fromAll(symbols, empty(), source);
    // Symbols refused last time go in requests of their own, so a delisted symbol costs a
    // request or two per poll instead of a narrowing down of the whole watch list.
    const suspects = symbols.filter((s) => this.refused.has(s));
    const rest = suspects.length === 0 ? symbols : symbols.filter((s) => !this.refused.has(s));
    const run: Narrowing = { source, result: empty(), refused: [], answered: 0, left: halvings };
    try {
      for (const list of [rest, suspects]) {
        for (let i = 0; i < list.length; i += this.cap) await this.fetchSymbols(list.slice(i, i + this.cap), false, run);
      }
    } catch (err) {
      if (!(err instanceof NarrowingTooCostly)) throw err;
      // Too many refused symbols to find them one by one within the weight budget: one
      // request for every symbol tells which are there.
      return this.fromAll(symbols, run.result, source);
    }
    if (run.answered === 0) {
      // Not one symbol answered: a 4xx to every request may be about the request, not the
      // symbols (a blocked path, a changed API). One request for every symbol tells, and
      // fails the poll when it fails too, rather than reading the whole list as missing.
      return this.fromAll(symbols, run.result, source);
    }
    this.refused = new Set(run.refused);
    const result = run.result;
    if (run.refused.length > 0) result.refused = run.refused;
    if (suspects.length > 0 || run.refused.length > 0) inOrderOf(symbols, result.records);
    return result;
  }

  /**
   * One request for `chunk`; when refused, its two halves, down to the symbols at fault.
   * `failed`: this list is already known to be refused (its whole was), so it is not asked again.
   */
  private async fetchSymbols(chunk: readonly string[], failed: boolean, run: Narrowing): Promise<boolean> {
    if (!failed) {
      try {
        const parsed = await run.source.some(chunk);
        run.result.records.push(...parsed.records);
        run.result.issues.push(...parsed.issues);
        run.result.bytes += parsed.bytes;
        run.result.requests += 1;
        run.answered += 1;
        return true;
      } catch (err) {
        if (!run.source.refusesSymbols(err)) throw err;
        run.result.requests += 1;
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

  /** The watch list picked out of one request for every symbol; a watched symbol not in it is refused. */
  private async fromAll(symbols: readonly string[], sofar: FetchResult<TickerRecord>, source: TickerSource): Promise<FetchResult<TickerRecord>> {
    const all = await source.all();
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
    this.refused = new Set(refused);
    return { records, issues, bytes: sofar.bytes + all.bytes, requests: sofar.requests + 1, ...(refused.length > 0 && { refused }) };
  }
}
