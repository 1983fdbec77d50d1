/**
 * What a dialect renderer is: the same market model (coins, networks, 24 h tickers) served
 * through another exchange's paths, field names, status encodings, signing checks and
 * rate-limit answers. Each renderer is built from that exchange's public docs and recorded
 * real answers (see test/simulator/dialects/fixtures/SOURCES.md), never from a decoder.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { SimCoin, SimNetwork } from '../market/model';
import type { NoticeView } from '../market/notices';
import type { SimulatorDialect } from './names';

/** One spot-v3 ticker of the model, as the reference exchange computes it. */
export interface ModelTicker {
  symbol: string;
  base: string;
  quote: string;
  priceChange: string;
  /** A ratio (`"0.012345"` = 1.2345 %), as the spec's deployments send it. */
  priceChangePercent: string;
  lastPrice: string;
  bidPrice: string;
  bidQty: string;
  askPrice: string;
  askQty: string;
  openPrice: string;
  highPrice: string;
  lowPrice: string;
  volume: string;
  quoteVolume: string;
  openTime: number;
  closeTime: number;
  count: number;
}

/** The API key the simulator accepts on signed endpoints. */
export interface SimCredentials {
  apiKey: string;
  apiSecret: string;
  /** OKX only. */
  passphrase?: string;
}

export interface DialectRequest {
  method: string;
  path: string;
  /** The query string as sent, without `?` ('' when none): what signatures cover. */
  rawQuery: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  now: number;
}

/** An answer: a JSON value (stringified) or a pre-rendered JSON text (exact number texts). */
export interface Answer {
  status: number;
  body: unknown;
  /** The body is already JSON text. */
  raw?: boolean;
  headers?: Record<string, string>;
}

/** The tickers a request asks for, resolved against the model by the dialect's own symbol names. */
export interface TickerSource {
  all(): ModelTicker[];
  /** By the model's symbol name (`BTCUSDT`); undefined when unknown. */
  one(symbol: string): ModelTicker | undefined;
}

export type Endpoint = 'coins' | 'tickers';

export interface RateState {
  used: number;
  max: number;
  windowMs: number;
  retryAfterMs: number;
  now: number;
}

/** A trading pair of the model, by its coins (HTX names a halt's `affectedSymbols` by them). */
export interface ModelPair {
  base: string;
  quote: string;
}

/**
 * One notice source of an exchange (notices.md 1): its answer to a request at `view.now`.
 * Public, never signed; weight 1.
 */
export type NoticeSource = (req: DialectRequest, view: NoticeView, pairs: readonly ModelPair[]) => Answer;

export interface DialectRenderer {
  name: Exclude<SimulatorDialect, 'spot-v3'>;
  paths: Record<Endpoint, string>;
  /**
   * The ids this exchange names a coin's network by in its answers (`TRX` for the model's
   * `Tron(TRC20)` on Binance, `USDT-TRC20` on OKX): the admin API and scenarios accept them
   * beside the model's own, so what a user reads in an answer is what they can name.
   */
  networkIds(coin: string, n: SimNetwork): readonly string[];
  /** Request weight of an endpoint (the exchange's own where it documents one). */
  weight(endpoint: Endpoint, query: URLSearchParams): number;
  /** Signed endpoints: undefined when the request is accepted, else the exchange's refusal. */
  authorize?(endpoint: Endpoint, req: DialectRequest, credentials: SimCredentials | undefined): Answer | undefined;
  coins(coins: readonly SimCoin[], now: number): Answer;
  tickers(req: DialectRequest, source: TickerSource): Answer;
  /** Headers on every answer (used weight, remaining budget). */
  usage(state: RateState): Record<string, string>;
  /** Budget exceeded (`banned`: repeated abuse while limited). */
  limited(state: RateState, banned: boolean, now: number): Answer;
  notFound(req: DialectRequest): Answer;
  /** The exchange's notice sources by path (absent: it publishes none the API reads). */
  notices?: Readonly<Record<string, NoticeSource>>;
}
