import { Agent, type Dispatcher } from 'undici';
import { systemClock, wallNow, type Clock } from '../lib/clock';
import { parseRetryAfter } from '../lib/retry-after';
import { sleep } from '../lib/sleep';
import type { CoinRecord, Endpoint, TickerRecord } from '../snapshot/model';
import { backoffDelay } from './backoff';
import { WeightBudget } from './budget';
import { InvalidJson } from './decimal-text';
import { Refused, type Dialect, type Refusal, type Request } from './dialect';
import { ExchangeError, type FailureKind, type RequestEndpoint } from './errors';
import { get, type GetResult } from './http';
import { LastAnswers } from './last-answers';
import { ShapeError, type Parsed } from './read';
import { WatchList, type AnswerTexts, type FetchResult, type TickerRequests } from './watch-list';

export type { AnswerText, AnswerTexts, FetchResult, WatchAssembly } from './watch-list';

export interface ClientOptions {
  /** The `exchange` label; used in messages. */
  exchange: string;
  /** The exchange's API (one of exchange/dialects/registry.ts). */
  dialect: Dialect;
  /** The dialect's credentials, for its signed requests (checked against its `credentials` schema). */
  credentials?: unknown;
  baseUrl: string;
  timeoutMs: number;
  maxBodyBytes: number;
  retries: { max: number; baseDelayMs: number; maxDelayMs: number };
  /**
   * Per endpoint, how long one fetch may go on retrying (the poll's interval): a retry that would
   * start later than this after the fetch began is not made, and the failure is the poll's, so a
   * failing exchange is reported down on time whatever `retries` says. Left out: only
   * `retries.max` bounds them.
   */
  retryWithinMs?: Partial<Record<Endpoint, number>>;
  weightLimit: { max: number; windowMs: number };
  headers?: Record<string, string>;
  /** Shared connection pool; when left out the client makes (and closes) its own. */
  dispatcher?: Dispatcher;
  clock?: Clock;
  random?: () => number;
  /** Told of every failed attempt that will be tried again. */
  onRetry?: (err: ExchangeError, attempt: number, delayMs: number) => void;
}

/** How long a ban (418) lasts when the exchange does not say. */
const DEFAULT_BAN_MS = 120_000;
/**
 * A rate limit without Retry-After: a pause growing with each refusal in a row (equal jitter),
 * from about a second to at most a minute, so the client backs off instead of asking again at
 * its next poll as if nothing had been said.
 */
const RATE_LIMIT_PAUSE = { baseMs: 1_000, maxMs: 60_000 } as const;

/**
 * The HTTP client of one exchange, for every dialect: the dialect plans the requests and
 * decodes the answers; the client budgets its own request weight, retries what is worth
 * retrying (honouring Retry-After), signs what the dialect signs, and returns validated
 * records. A body it cannot use is an ExchangeError of that fetch, never an empty exchange.
 */
export class ExchangeClient {
  private readonly dialect: Dialect;
  private readonly credentials: unknown;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly budget: WeightBudget;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly headers: Record<string, string>;
  private readonly watchList: WatchList;
  private blockKind: FailureKind = 'rate_limited';
  /** Rate-limit refusals in a row without a Retry-After (the next pause grows with them). */
  private limitedInRow = 0;
  /** The exchange's clock minus ours, from the last re-sync (for signed requests' timestamps). */
  private clockOffsetMs = 0;
  /** Per request path, the last answer's bytes and what it decoded to (last-answers.ts). */
  private readonly answers = new LastAnswers();

  constructor(private readonly options: ClientOptions) {
    this.dialect = options.dialect;
    this.credentials = options.dialect.credentials?.parse(options.credentials);
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ?? new Agent({ connections: 4, keepAliveTimeout: 30_000, connectTimeout: options.timeoutMs });
    this.budget = new WeightBudget(options.weightLimit.max, options.weightLimit.windowMs, this.clock);
    this.watchList = new WatchList(this.dialect.defaults.symbolsCap);
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

  /** Milliseconds until the client sends again, after the exchange asked for a pause (0: none). */
  pausedFor(): number {
    return this.budget.blockedFor();
  }

  /**
   * The coin list. `previous` (the coins of the last snapshot) lets unchanged coins come back
   * as their previous objects (see the dialect's decode).
   */
  async fetchCoins(signal?: AbortSignal, previous?: ReadonlyMap<string, CoinRecord>): Promise<FetchResult<CoinRecord>> {
    return this.fetch('coins', this.dialect.requests.coins(), (text) => this.dialect.decode.coins(text, previous), signal, this.retryDeadline('coins'));
  }

  /**
   * Tickers of the watch list in the order given, or of every symbol when the list is empty;
   * `previous` as for fetchCoins. A watched symbol the exchange refuses is left out of the
   * records, so it reads as missing, and named in `refused` (see watch-list.ts).
   */
  async fetchTickers(symbols: readonly string[], signal?: AbortSignal, previous?: ReadonlyMap<string, TickerRecord>): Promise<FetchResult<TickerRecord>> {
    const decode = (text: string): Parsed<TickerRecord> => this.dialect.decode.tickers(text, previous);
    // One deadline for every request of this fetch (the watch list's halvings included).
    const deadline = this.retryDeadline('tickers');
    const all = (): Promise<FetchResult<TickerRecord>> => this.fetch('tickers', this.dialect.requests.tickers(undefined), decode, signal, deadline);
    if (symbols.length === 0) return all();
    // The halvings one fetch may spend finding refused symbols: each costs up to two requests,
    // and together they stay within a quarter of the weight budget's window.
    const weight = this.dialect.requests.tickers(symbols.slice(0, 1)).weight;
    const halvings = Math.max(2, Math.floor(this.options.weightLimit.max / weight / 8));
    const requests: TickerRequests = {
      some: (chunk) => this.fetch('tickers', this.dialect.requests.tickers(chunk), decode, signal, deadline),
      all,
      refusesSymbols: (err) => err instanceof ExchangeError && this.dialect.errors.refusesSymbols(err),
    };
    return this.watchList.fetch(symbols, requests, halvings);
  }

  /**
   * One notice request (notices/fetch.ts): the answer's text, sent through the same budget,
   * timeout, body cap and Retry-After handling as a poll, or an ExchangeError of endpoint
   * `notices`. It never delays a poll: it takes weight only from the lower half of the window
   * (WeightBudget.tryTake's ceiling), is not sent while the exchange asked for a pause, and is
   * not retried (the next notice poll is its retry).
   */
  async fetchNotice(request: Request, signal?: AbortSignal): Promise<string> {
    const ceiling = Math.max(request.weight, Math.floor(this.options.weightLimit.max / 2));
    for (;;) {
      const blocked = this.budget.blockedFor();
      if (blocked > 0) {
        throw new ExchangeError(this.blockKind, 'notices', `notices: not sent, the exchange asked for a pause of ${Math.ceil(blocked / 1000)} s`, { retryAfterMs: blocked });
      }
      const wait = this.budget.tryTake(request.weight, ceiling);
      if (wait === 0) break;
      await sleep(wait, signal);
    }
    const res = await this.send('notices', { path: request.path, weight: request.weight, ...(request.headers !== undefined && { headers: request.headers }) }, signal);
    return res.text;
  }

  /** Closes the connection pool, when the client made it. */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /**
   * One request of the plan, decoded, with the bytes it was decoded from (for a recording: the
   * last answer the client keeps anyway, not a copy). When the exchange refuses the request's
   * timestamp, the client re-reads the exchange's time and tries once more.
   */
  private async fetch<T>(endpoint: Endpoint, request: Request, decode: (text: string) => Parsed<T>, signal: AbortSignal | undefined, deadline?: number): Promise<FetchResult<T>> {
    for (let synced = false; ; synced = true) {
      try {
        // The last answer, taken now: its bytes are what the new answer's are compared with as they
        // arrive; equal bytes are handed back as they were decoded.
        const last = this.answers.get(request.path);
        const res = await this.request(endpoint, request, signal, last, deadline);
        if (res.same === true && last !== undefined) {
          // The same answer compressed anew: its compressed bytes are what the next is compared with.
          if (res.wire !== undefined) this.answers.rewire(request.path, res.wire);
          this.limitedInRow = 0;
          const same = last.result as Parsed<T>;
          return { records: [...same.records], issues: [...same.issues], bytes: res.bytes, requests: 1, unchanged: true, texts: textOf(request, last.raw) };
        }
        const result = this.decode(endpoint, res, decode);
        this.limitedInRow = 0;
        this.answers.keep(request.path, result, res.raw, res.wire);
        return { ...result, bytes: res.bytes, requests: 1, texts: textOf(request, res.raw ?? Buffer.from(res.text, 'utf8')) };
      } catch (err) {
        if (synced || !(err instanceof RefusedClock) || this.dialect.requests.serverTime === undefined) throw err;
        await this.syncClock(endpoint, signal, deadline);
      }
    }
  }

  /** Sets the offset of the exchange's clock from its answer to the dialect's server-time request. */
  private async syncClock(endpoint: Endpoint, signal?: AbortSignal, deadline?: number): Promise<void> {
    const { requests, decode } = this.dialect;
    if (requests.serverTime === undefined || decode.serverTime === undefined) return;
    const sent = wallNow(this.clock);
    const res = await this.request(endpoint, requests.serverTime(), signal, undefined, deadline);
    const time = this.decode(endpoint, res, decode.serverTime);
    // The answer was stamped about halfway between sending and receiving.
    this.clockOffsetMs = time - Math.round((sent + wallNow(this.clock)) / 2);
  }

  /** An answer's text through the dialect's decode; what the decode throws, as the error of that fetch. */
  private decode<T>(endpoint: Endpoint, res: GetResult, decode: (text: string) => T): T {
    try {
      return decode(res.text);
    } catch (err) {
      if (err instanceof InvalidJson) throw new ExchangeError('invalid_json', endpoint, `${endpoint}: answer is not valid JSON (${res.text.length} characters)`);
      if (err instanceof ShapeError) throw new ExchangeError('schema', endpoint, err.message);
      if (err instanceof Refused) throw this.refusalError(endpoint, res, err.refusal);
      throw err;
    }
  }

  /** When a fetch of `endpoint` begun now must have ended, retries included (monotonic ms); undefined: no such bound. */
  private retryDeadline(endpoint: Endpoint): number | undefined {
    const within = this.options.retryWithinMs?.[endpoint];
    return within === undefined ? undefined : this.clock.monotonic() + within;
  }

  /**
   * One logical request: budget, sign, send, classify, retry. A retry is made only when it starts
   * before `deadline` (retryWithinMs).
   */
  private async request(endpoint: Endpoint, request: Request, signal?: AbortSignal, sameAs?: Readonly<{ raw: Buffer; wire?: Buffer | undefined }>, deadline?: number): Promise<GetResult> {
    const { max, baseDelayMs, maxDelayMs } = this.options.retries;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.takeWeight(endpoint, request.weight, signal);
        return await this.send(endpoint, request, signal, sameAs);
      } catch (err) {
        if (!(err instanceof ExchangeError) || !err.retryable || attempt >= max) throw err;
        const delay = err.retryAfterMs ?? backoffDelay(attempt, baseDelayMs, maxDelayMs, this.random);
        if (delay > maxDelayMs) throw err;
        // A retry starts within the poll's interval (its own timeout may end past it): a timed-out
        // request is still retried once with the defaults (5 s timeout, 10 s tickers), and a fetch
        // lasts at most the interval and one timeout, whatever retries.max says.
        if (deadline !== undefined && this.clock.monotonic() + delay >= deadline) throw err;
        this.options.onRetry?.(err, attempt + 1, delay);
        await sleep(delay, signal);
      }
    }
  }

  private async takeWeight(endpoint: Endpoint, weight: number, signal?: AbortSignal): Promise<void> {
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

  private async send(endpoint: RequestEndpoint, request: Request, signal?: AbortSignal, sameAs?: Readonly<{ raw: Buffer; wire?: Buffer | undefined }>): Promise<GetResult> {
    const signed = request.signed === true && this.dialect.sign !== undefined ? this.dialect.sign(request, this.credentials, wallNow(this.clock) + this.clockOffsetMs) : request;
    const res = await get({
      dispatcher: this.dispatcher,
      origin: this.origin,
      path: this.basePath + signed.path,
      endpoint,
      headers: signed.headers === undefined ? this.headers : { ...this.headers, ...signed.headers },
      timeoutMs: this.options.timeoutMs,
      maxBodyBytes: this.options.maxBodyBytes,
      signal,
      sameAs: sameAs?.raw,
      sameWire: sameAs?.wire,
    });
    const pause = this.dialect.errors.pauseAfter?.(res.headers, wallNow(this.clock) + this.clockOffsetMs);
    if (pause !== undefined && pause > 0) {
      // The exchange's own count says the limit is reached: wait rather than be refused (and banned).
      this.blockKind = 'rate_limited';
      this.budget.blockUntil(this.clock.monotonic() + pause);
    }
    if (res.status >= 200 && res.status < 300) return res;
    throw this.refusalError(endpoint, res, this.dialect.errors.read(res.status, res.text));
  }

  /** The error of an answer the exchange refused (any status but 2xx, or an error inside a 2xx answer). */
  private refusalError(endpoint: RequestEndpoint, res: GetResult, refusal: Refusal): ExchangeError {
    const now = wallNow(this.clock);
    const retryAfterMs = parseRetryAfter(res.headers['retry-after'], now);
    const { code, msg } = refusal;
    const detail = `${endpoint}: HTTP ${res.status}${code !== undefined ? ` code ${code}` : ''}${msg ? `: ${msg}` : ''}`;
    const details = { status: res.status, ...(code !== undefined && { code }), ...(retryAfterMs !== undefined && { retryAfterMs }) };
    if (refusal.pause !== undefined) {
      // Nothing is sent until the pause is over: its Retry-After, or for a ban that does not say, DEFAULT_BAN_MS.
      this.blockKind = refusal.pause;
      const pauseMs = retryAfterMs ?? (refusal.pause === 'banned' ? DEFAULT_BAN_MS : backoffDelay(this.limitedInRow++, RATE_LIMIT_PAUSE.baseMs, RATE_LIMIT_PAUSE.maxMs, this.random));
      this.budget.blockUntil(this.clock.monotonic() + pauseMs);
      return new ExchangeError(refusal.pause, endpoint, detail, details);
    }
    if (res.status >= 300 && res.status < 400) {
      // Not followed: no interface defines a redirect, and one may lead away from the
      // configured host (to a captive portal, a parked domain, another exchange). Reported as
      // its own kind with where it pointed, so a moved base_url is fixed in the config, knowingly.
      return new ExchangeError('http_3xx', endpoint, `${detail}${redirectTarget(res.headers.location)} (redirects are not followed; check base_url)`, details);
    }
    const kind = res.status >= 500 ? 'http_5xx' : 'http_4xx';
    return refusal.clock === true ? new RefusedClock(kind, endpoint, detail, details) : new ExchangeError(kind, endpoint, detail, details);
  }
}

/** The answer's bytes as FetchResult.texts. */
function textOf(request: Request, body: Buffer): AnswerTexts {
  return { answers: [{ path: request.path, body }] };
}

/** A refused timestamp: fetch re-syncs the clock and tries once more (never a retry of its own). */
class RefusedClock extends ExchangeError {
  override get retryable(): boolean {
    return false;
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
