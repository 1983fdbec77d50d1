/**
 * A dialect: one exchange API as spotwatch reads it (DESIGN.md section 2). It says where to
 * send requests and what they cost, how to sign them, how to read an error answer, and how to
 * decode an answer into the Snapshot model; the client (client.ts) does everything else the
 * same way for every dialect: the weight budget, retries, Retry-After, body limits, the
 * narrowing of a refused watch list, and the re-sync of the server's time. A dialect is one
 * folder, `exchange/dialects/<name>/`, exporting one object that satisfies Dialect, and one
 * line in `exchange/dialects/registry.ts`.
 */
import type { z } from 'zod';
import type { CoinRecord, TickerRecord } from '../snapshot/model';
import type { ExchangeError } from './errors';
import type { Parsed } from './read';

/** One request to send. */
export interface Request {
  /** Path and query, appended to the base URL (whose own path is kept as a prefix). */
  path: string;
  /** What the request costs against the exchange's weight limit (per IP, per window). */
  weight: number;
  headers?: Record<string, string>;
  /** Signed with the exchange's credentials (Dialect.sign) just before each attempt. */
  signed?: boolean;
}

/** What the exchange's error answer says, as far as spotwatch acts on it. */
export interface Refusal {
  /** The exchange's own error code, as text (it may arrive as a number or a string), at most 32 characters. */
  code?: string;
  /** Its message, at most 200 characters, without control characters. */
  msg?: string;
  /**
   * The exchange asks for a pause: `rate_limited` (too many requests; a Retry-After is
   * honoured) or `banned` (the IP is blocked for a while). The client sends nothing to this
   * exchange until the pause is over.
   */
  pause?: 'rate_limited' | 'banned';
  /** The request's timestamp was refused (outside the exchange's window): the client re-reads the server's time and tries again once. */
  clock?: boolean;
}

/**
 * An error the exchange sent inside an answer of status 2xx (one exchange answers refused
 * parameters with HTTP 200 and an error envelope): thrown by a decode, it is handled as an
 * error answer, of kind `http_4xx` unless it asks for a pause.
 */
export class Refused extends Error {
  override readonly name = 'Refused';

  constructor(readonly refusal: Refusal) {
    super(refusal.msg ?? `code ${refusal.code ?? 'unknown'}`);
  }
}

export interface DialectDefaults {
  /** The exchange's API host, used when the config gives no base_url; none: the embedded reference exchange. */
  baseUrl?: string;
  /** The most symbols one tickers request may name; 0 when the exchange has no such request (every symbol is read, and the watch list picked out). */
  symbolsCap: number;
  /**
   * The exchange's documented limit per IP, in the units of this dialect's request weights:
   * the client's budget (`weight_limit`) unless the config sets one. None: the config's
   * default (500 per 10 s, spot-v3's spec section 8).
   */
  weightLimit?: WeightLimit;
}

/** A weight budget: at most `max` weight per `windowMs`. */
export interface WeightLimit {
  readonly max: number;
  readonly windowMs: number;
}

/** The requests of one poll. */
export interface RequestPlan {
  coins(): Request;
  /** Tickers of these symbols (at most symbolsCap of them), or of every symbol when undefined. */
  tickers(symbols: readonly string[] | undefined): Request;
  /** The exchange's clock, for a dialect whose signed requests carry a timestamp. */
  serverTime?(): Request;
}

/**
 * How a dialect reads its answers: text in, records out, synchronously (the poll path runs in
 * a thread of its own: nothing here yields). Exact decimals are kept as their text (decimal-text.ts).
 */
export interface Decoder {
  /**
   * The coins of an answer's text. `previous` (the last snapshot's coins) gives the last known
   * values of networks unknown now (the coin flags carried over them,
   * dialects/families/mapped-decode.ts), and an unchanged coin back as its previous object.
   * Throws ShapeError (wrong shape), Refused (an error inside a 2xx answer), InvalidJson (not
   * JSON). A malformed record is an issue, not a failure.
   */
  coins(text: string, previous?: ReadonlyMap<string, CoinRecord>): Parsed<CoinRecord>;
  /** The tickers of an answer's text, as coins. */
  tickers(text: string, previous?: ReadonlyMap<string, TickerRecord>): Parsed<TickerRecord>;
  /** The server's time (ms since the epoch) from the answer to RequestPlan.serverTime; throws as coins. */
  serverTime?(text: string): number;
}

export interface DialectErrors {
  /** What an answer of status `status` (not 2xx) says: its code and message, and whether it asks for a pause or refused the timestamp. */
  read(status: number, text: string): Refusal;
  /** Whether a failed request for a watch list was refused for a symbol it names: then the client narrows the list down to the symbols at fault. */
  refusesSymbols(error: ExchangeError): boolean;
  /**
   * For an exchange whose answers say how much of its limit the IP has used (Binance's
   * `X-MBX-USED-WEIGHT-1M`, counting other clients on the same IP too): how long to send
   * nothing (ms) because the next request would be over the limit, or undefined. `now` is the
   * exchange's time as the client reckons it.
   */
  pauseAfter?(headers: Readonly<Record<string, string | string[] | undefined>>, now: number): number | undefined;
}

/**
 * One exchange API. `C` is the type of its credentials (the config's `credentials`, checked
 * against `credentials`); a dialect without signed requests has none.
 */
export interface Dialect<C = unknown> {
  /** The config's `dialect` value. */
  readonly name: string;
  readonly defaults: DialectDefaults;
  /** The credentials it needs, when its requests are signed. */
  readonly credentials?: z.ZodType<C>;
  readonly requests: RequestPlan;
  /**
   * A signed request for `request`, stamped `now` (the exchange's time as the client
   * reckons it, in ms since the epoch: the local clock corrected by the last re-sync).
   */
  sign?(request: Request, credentials: C, now: number): Request;
  readonly decode: Decoder;
  readonly errors: DialectErrors;
}
