import { Agent, type Dispatcher } from 'undici';
import { systemClock, type Clock } from '../lib/clock';
import { sleep } from '../lib/sleep';
import type { CoinRecord, RecordIssue, TickerRecord } from '../snapshot/model';
import { WeightBudget } from './budget';
import { parseJsonKeepingDecimalsInTurns } from './decimal';
import { ExchangeError, type FailureKind } from './errors';
import { get, type GetResult } from './http';
import { parseRetryAfter } from '../lib/retry-after';
import { backoffDelay } from './backoff';
import { ShapeError, validateCoinsInTurns, validateTickersInTurns, type Parsed } from './validate';
import { COINS_PATH, TICKER_PATH, WEIGHTS, type Endpoint } from './wire';

export interface ClientOptions {
  /** The `exchange` label; used in messages. */
  exchange: string;
  baseUrl: string;
  timeoutMs: number;
  maxBodyBytes: number;
  retries: { max: number; baseDelayMs: number; maxDelayMs: number };
  weightLimit: { max: number; windowMs: number };
  headers?: Record<string, string>;
  /** Largest `symbols` list one request may carry; longer watch lists are split. */
  symbolsCap?: number;
  /** Shared connection pool; when left out the client makes (and closes) its own. */
  dispatcher?: Dispatcher;
  clock?: Clock;
  random?: () => number;
  /** Told of every failed attempt that will be tried again. */
  onRetry?: (err: ExchangeError, attempt: number, delayMs: number) => void;
}

export interface FetchResult<T> extends Parsed<T> {
  /** Bytes received over all requests of this fetch. */
  bytes: number;
  requests: number;
  /** Watched symbols the exchange refused (a 4xx naming them); absent from the records, so missing. */
  refused?: string[];
}

/** The state of one watch-list fetch while refused symbols are narrowed down. */
interface Narrowing {
  result: FetchResult<TickerRecord>;
  refused: string[];
  /** Requests answered with records. */
  answered: number;
  /** Halvings left (see narrowingBudget). */
  left: number;
  validate: (body: unknown) => Parsed<TickerRecord> | Promise<Parsed<TickerRecord>>;
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

export const DEFAULT_SYMBOLS_CAP = 100;
/** How long a ban (418) lasts when the exchange does not say. */
const DEFAULT_BAN_MS = 120_000;

/**
 * The HTTP client for the spec's two read operations. It budgets its own request weight,
 * retries what is worth retrying (honouring Retry-After), and returns validated records;
 * a body it cannot use is an ExchangeError of that fetch, never an empty exchange.
 */
export class ExchangeClient {
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly budget: WeightBudget;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly headers: Record<string, string>;
  private blockKind: FailureKind = 'rate_limited';
  /** Watched symbols the exchange refused on the last fetch. */
  private refused: ReadonlySet<string> = new Set();

  constructor(private readonly options: ClientOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ?? new Agent({ connections: 4, keepAliveTimeout: 30_000, connectTimeout: options.timeoutMs });
    this.budget = new WeightBudget(options.weightLimit.max, options.weightLimit.windowMs, this.clock);
    this.headers = {
      accept: 'application/json',
      'accept-encoding': 'gzip, deflate, br',
      'user-agent': 'spotwatch',
      ...options.headers,
    };
  }

  /** Request weight spent within the current window. */
  usedWeight(): number {
    return this.budget.used();
  }

  /**
   * The coin list. `previous` (the coins of the last snapshot) lets unchanged coins come back
   * as their previous objects (see validateCoins).
   */
  async fetchCoins(signal?: AbortSignal, previous?: ReadonlyMap<string, CoinRecord>): Promise<FetchResult<CoinRecord>> {
    const res = await this.request('coins', COINS_PATH, signal);
    // Validated in turns of the event loop: a storm changes every coin of a 4 MB answer.
    return { ...(await this.decode('coins', res, (body) => validateCoinsInTurns(body, previous))), bytes: res.bytes, requests: 1 };
  }

  /**
   * Tickers of the watch list in the order given, or of every symbol when the list is empty;
   * `previous` as for fetchCoins. A watched symbol the exchange refuses (delisted, unknown:
   * any 4xx to a `symbols=` request) is left out of the records, so it reads as missing, and
   * named in `refused`; the other symbols are read as usual.
   */
  async fetchTickers(symbols: readonly string[], signal?: AbortSignal, previous?: ReadonlyMap<string, TickerRecord>): Promise<FetchResult<TickerRecord>> {
    const validate = (body: unknown): Promise<Parsed<TickerRecord>> => validateTickersInTurns(body, previous);
    if (symbols.length === 0) return this.fetchAllTickers(validate, signal);
    const cap = this.options.symbolsCap ?? DEFAULT_SYMBOLS_CAP;
    // Symbols refused last time go in requests of their own, so a delisted symbol costs a
    // request or two per poll instead of a narrowing down of the whole watch list.
    const suspects = symbols.filter((s) => this.refused.has(s));
    const rest = suspects.length === 0 ? symbols : symbols.filter((s) => !this.refused.has(s));
    const run: Narrowing = { result: { records: [], issues: [], bytes: 0, requests: 0 }, refused: [], answered: 0, left: this.narrowingBudget(), validate };
    try {
      for (const list of [rest, suspects]) {
        for (let i = 0; i < list.length; i += cap) await this.fetchSymbols(list.slice(i, i + cap), false, run, signal);
      }
    } catch (err) {
      if (!(err instanceof NarrowingTooCostly)) throw err;
      // Too many refused symbols to find them one by one within the weight budget: one
      // request for every symbol tells which are there.
      return this.watchListFromAll(symbols, run.result, validate, signal);
    }
    if (run.answered === 0) {
      // Not one symbol answered: a 4xx to every request may be about the request, not the
      // symbols (a blocked path, a changed API). One request for every symbol tells, and
      // fails the poll when it fails too, rather than reading the whole list as missing.
      return this.watchListFromAll(symbols, run.result, validate, signal);
    }
    this.refused = new Set(run.refused);
    const result = run.result;
    if (run.refused.length > 0) result.refused = run.refused;
    if (suspects.length > 0 || run.refused.length > 0) inOrderOf(symbols, result.records);
    return result;
  }

  /**
   * One `symbols=` request; on a 4xx, its two halves, down to the symbols at fault.
   * `failed`: this list is already known to be refused (its whole was), so it is not asked again.
   */
  private async fetchSymbols(chunk: readonly string[], failed: boolean, run: Narrowing, signal?: AbortSignal): Promise<boolean> {
    if (!failed) {
      try {
        const res = await this.request('tickers', `${TICKER_PATH}?symbols=${encodeURIComponent(JSON.stringify(chunk))}`, signal);
        const parsed = await this.decode('tickers', res, run.validate);
        run.result.records.push(...parsed.records);
        run.result.issues.push(...parsed.issues);
        run.result.bytes += res.bytes;
        run.result.requests += 1;
        run.answered += 1;
        return true;
      } catch (err) {
        if (!(err instanceof ExchangeError) || err.kind !== 'http_4xx') throw err;
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
    const firstOk = await this.fetchSymbols(chunk.slice(0, mid), false, run, signal);
    // When the first half was answered whole, the fault is in the second: no need to ask for it whole.
    await this.fetchSymbols(chunk.slice(mid), firstOk, run, signal);
    return false;
  }

  /**
   * How many halvings one fetch may spend finding refused symbols: each costs up to two
   * requests, and together they stay within a quarter of the weight budget's window.
   */
  private narrowingBudget(): number {
    return Math.max(2, Math.floor(this.options.weightLimit.max / WEIGHTS.tickers / 8));
  }

  /** Closes the connection pool, when the client made it. */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private async fetchAllTickers(validate: (body: unknown) => Parsed<TickerRecord> | Promise<Parsed<TickerRecord>>, signal?: AbortSignal): Promise<FetchResult<TickerRecord>> {
    const res = await this.request('tickers', TICKER_PATH, signal);
    return { ...(await this.decode('tickers', res, validate)), bytes: res.bytes, requests: 1 };
  }

  private async watchListFromAll(
    symbols: readonly string[],
    sofar: FetchResult<TickerRecord>,
    validate: (body: unknown) => Parsed<TickerRecord> | Promise<Parsed<TickerRecord>>,
    signal?: AbortSignal,
  ): Promise<FetchResult<TickerRecord>> {
    const all = await this.fetchAllTickers(validate, signal);
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

  private async decode<T>(endpoint: Endpoint, res: GetResult, validate: (body: unknown) => Parsed<T> | Promise<Parsed<T>>): Promise<Parsed<T>> {
    let body: unknown;
    try {
      body = await parseJsonKeepingDecimalsInTurns(res.text, endpoint);
    } catch {
      throw new ExchangeError('invalid_json', endpoint, `${endpoint}: answer is not valid JSON (${res.text.length} characters)`);
    }
    try {
      return await validate(body);
    } catch (err) {
      if (err instanceof ShapeError) throw new ExchangeError('schema', endpoint, err.message);
      throw err;
    }
  }

  /** One logical request: budget, send, classify, retry. */
  private async request(endpoint: Endpoint, path: string, signal?: AbortSignal): Promise<GetResult> {
    const { max, baseDelayMs, maxDelayMs } = this.options.retries;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.takeWeight(endpoint, signal);
        return await this.send(endpoint, path, signal);
      } catch (err) {
        if (!(err instanceof ExchangeError) || !err.retryable || attempt >= max) throw err;
        const delay = err.retryAfterMs ?? backoffDelay(attempt, baseDelayMs, maxDelayMs, this.random);
        if (delay > maxDelayMs) throw err;
        this.options.onRetry?.(err, attempt + 1, delay);
        await sleep(delay, signal);
      }
    }
  }

  private async takeWeight(endpoint: Endpoint, signal?: AbortSignal): Promise<void> {
    const weight = WEIGHTS[endpoint];
    for (;;) {
      const blocked = this.budget.blockedFor();
      if (blocked > this.options.retries.maxDelayMs) {
        throw new ExchangeError(this.blockKind, endpoint, `${endpoint}: not sent, the exchange asked for a pause of ${Math.ceil(blocked / 1000)} s`, {
          retryAfterMs: blocked,
        });
      }
      const wait = this.budget.tryTake(weight);
      if (wait === 0) return;
      await sleep(wait, signal);
    }
  }

  private async send(endpoint: Endpoint, path: string, signal?: AbortSignal): Promise<GetResult> {
    const res = await get({
      dispatcher: this.dispatcher,
      origin: this.origin,
      path: this.basePath + path,
      endpoint,
      headers: this.headers,
      timeoutMs: this.options.timeoutMs,
      maxBodyBytes: this.options.maxBodyBytes,
      signal,
    });
    if (res.status >= 200 && res.status < 300) return res;
    throw this.statusError(endpoint, res);
  }

  private statusError(endpoint: Endpoint, res: GetResult): ExchangeError {
    const now = this.clock.now();
    const retryAfterMs = parseRetryAfter(res.headers['retry-after'], now);
    const { code, msg } = errorBody(res.text);
    const detail = `${endpoint}: HTTP ${res.status}${code !== undefined ? ` code ${code}` : ''}${msg ? `: ${msg}` : ''}`;
    const details = { status: res.status, ...(code !== undefined && { code }), ...(retryAfterMs !== undefined && { retryAfterMs }) };
    if (res.status === 429) {
      this.blockKind = 'rate_limited';
      if (retryAfterMs !== undefined) this.budget.blockUntil(now + retryAfterMs);
      return new ExchangeError('rate_limited', endpoint, detail, details);
    }
    if (res.status === 418) {
      this.blockKind = 'banned';
      this.budget.blockUntil(now + (retryAfterMs ?? DEFAULT_BAN_MS));
      return new ExchangeError('banned', endpoint, detail, details);
    }
    if (res.status >= 300 && res.status < 400) {
      // Not followed: the spec defines no redirect, and one may lead away from the configured
      // host (to a captive portal, a parked domain, another exchange). Reported as its own kind
      // with where it pointed, so a moved base_url is fixed in the config, knowingly.
      return new ExchangeError('http_3xx', endpoint, `${detail}${redirectTarget(res.headers.location)} (redirects are not followed; check base_url)`, details);
    }
    return new ExchangeError(res.status >= 500 ? 'http_5xx' : 'http_4xx', endpoint, detail, details);
  }
}

/** ` to ORIGIN` of a redirect's Location (origin only: a path or query may carry tokens), or nothing. */
function redirectTarget(location: string | string[] | undefined): string {
  const text = Array.isArray(location) ? location[0] : location;
  if (text === undefined) return '';
  try {
    const url = new URL(text, 'http://relative.invalid');
    return url.host === 'relative.invalid' ? ' to a path on the same host' : ` to ${url.protocol}//${url.host}`;
  } catch {
    return '';
  }
}

/** The `{"code","msg"}` of an error answer, when it has one; `msg` is cut short and stripped of control characters. */
function errorBody(text: string): { code?: string; msg?: string } {
  if (text.length > 64 * 1024) return {};
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body !== 'object' || body === null) return {};
    const { code, msg } = body as { code?: unknown; msg?: unknown };
    const out: { code?: string; msg?: string } = {};
    if (typeof code === 'number' || typeof code === 'string') out.code = String(code).slice(0, 32);
    // eslint-disable-next-line no-control-regex
    if (typeof msg === 'string') out.msg = msg.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 200);
    return out;
  } catch {
    return {};
  }
}
