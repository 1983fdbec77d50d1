/**
 * The mapped family: a dialect whose fields are mapped onto the model (mapped-decode.ts), what
 * every dialect but spot-v3 has alike, written once. Each says its address, paths, weights, decimal keys, where the
 * records are in its answers, how one record maps and how it reads an error answer; a dialect
 * whose coins are signed (binance, mexc, okx, bybit) also how it signs and reads the exchange's
 * clock.
 */
import type { z } from 'zod';
import type { Endpoint } from '../../../snapshot/model';
import { exactDecimalJson, parseJson, type BareDecimals } from '../../decimal-text';
import type { Dialect, DialectErrors, Refusal, Request, WeightLimit } from '../../dialect';
import { decodeCoinsWith, decodeTickersWith, type CoinSource, type TickerSource } from './mapped-decode';

export interface MappedDialect<C> {
  readonly name: string;
  /** The exchange's API host (the default base_url). */
  readonly baseUrl: string;
  readonly paths: Readonly<Record<Endpoint, string>>;
  /** Each request's cost, as the exchange documents its limits (`tickers`: for every symbol). */
  readonly weights: Readonly<Record<Endpoint, number>>;
  /** The documented limit per IP those weights count against (DialectDefaults.weightLimit). */
  readonly weightLimit: WeightLimit;
  /**
   * Where the tickers request takes a list of symbols: at most `cap` of them, and the request
   * for them. None: every symbol is read and the watch list picked out (symbolsCap 0).
   */
  readonly watchList?: { readonly cap: number; request(symbols: readonly string[]): Request };
  /** Where the coins request is signed: the credentials, the signing, and the exchange's clock for the re-sync. */
  readonly signed?: {
    readonly credentials: z.ZodType<C>;
    sign(request: Request, credentials: C, now: number): Request;
    readonly time: Request;
    serverTime(body: unknown): number;
  };
  /** Per answer, the keys whose bare JSON numbers are decimals (their text is kept). */
  readonly decimalKeys: Readonly<Record<Endpoint, readonly string[]>>;
  /** Per answer, how often such numbers come bare (decimal-text.ts BareDecimals); `rare` unless said. */
  readonly bareDecimals?: Readonly<Partial<Record<Endpoint, BareDecimals>>>;
  /** The raw coins of a parsed answer (throws Refused for an error in it, ShapeError for another shape). */
  coinList(body: unknown): readonly unknown[];
  /** The raw tickers of a parsed answer, and its own time when it has one. */
  tickerList(body: unknown): { list: readonly unknown[]; time: number | null };
  readonly coins: CoinSource;
  readonly tickers: TickerSource;
  /** What an error answer (not 2xx) says. */
  readRefusal(status: number, text: string): Refusal;
  /** DialectErrors.refusesSymbols; none: no failure is about a symbol. */
  readonly refusesSymbols?: DialectErrors['refusesSymbols'];
  readonly pauseAfter?: DialectErrors['pauseAfter'];
}

export function mappedDialect<C = never>(d: MappedDialect<C>): Dialect<C> {
  const json = { coins: exactDecimalJson(d.decimalKeys.coins, d.bareDecimals?.coins), tickers: exactDecimalJson(d.decimalKeys.tickers, d.bareDecimals?.tickers) };
  const { signed, watchList } = d;
  return {
    name: d.name,
    defaults: { baseUrl: d.baseUrl, symbolsCap: watchList?.cap ?? 0, weightLimit: d.weightLimit },
    credentials: signed?.credentials,
    requests: {
      coins: () => ({ path: d.paths.coins, weight: d.weights.coins, ...(signed !== undefined && { signed: true }) }),
      tickers: (symbols) => (symbols === undefined || watchList === undefined ? { path: d.paths.tickers, weight: d.weights.tickers } : watchList.request(symbols)),
      serverTime: signed && (() => signed.time),
    },
    sign: signed?.sign,
    decode: {
      coins: (text, previous) => decodeCoinsWith(d.coins, d.coinList(json.coins(text)), previous),
      tickers: (text, previous) => {
        const { list, time } = d.tickerList(json.tickers(text));
        return decodeTickersWith(d.tickers, list, time, previous);
      },
      serverTime: signed && ((text) => signed.serverTime(parseJson(text))),
    },
    errors: { read: d.readRefusal, refusesSymbols: d.refusesSymbols ?? (() => false), pauseAfter: d.pauseAfter },
  };
}
