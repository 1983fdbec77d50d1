/**
 * The shape every signed dialect shares (binance, mexc, okx, bybit): signed coins, public
 * tickers, the exchange's clock for the re-sync, exact decimals under the answer's own keys.
 * A dialect's folder gives only what is its own; this builds the Dialect object from it.
 */
import type { z } from 'zod';
import type { CoinRecord, RecordIssue, TickerRecord } from '../snapshot/model';
import { decodeCoinList } from './decode-list';
import { exactDecimalJson } from './decimal';
import type { Dialect, DialectErrors, Refusal, Request, WeightLimit } from './dialect';
import type { ExchangeError } from './errors';
import type { Json, Parsed } from './read';

export interface SignedDialectSpec<C> {
  name: string;
  /** The exchange's public API host. */
  baseUrl: string;
  credentials: z.ZodType<C>;
  paths: { readonly coins: string; readonly tickers: string; readonly time: string };
  /** Request weights as documented; `tickers` by the number of symbols asked (undefined: all). */
  weights: { readonly coins: number; readonly time: number; tickers(symbols: number | undefined): number };
  /** The documented limit per IP those weights count against (DialectDefaults.weightLimit). */
  weightLimit: WeightLimit;
  /** The path asking for these symbols, where the exchange takes a list (then symbolsCap > 0). */
  tickersOf?: (symbols: readonly string[]) => string;
  symbolsCap: number;
  /** The keys of decimals in each answer (kept as their exact text when sent as bare numbers). */
  decimals: { readonly coins: readonly string[]; readonly tickers: readonly string[] };
  sign(request: Request, credentials: C, now: number): Request;
  /** The coins, `previous` (the last snapshot's) giving the last known values of networks unknown now. */
  coins(body: unknown, previous: ReadonlyMap<string, CoinRecord> | undefined): Parsed<CoinRecord>;
  tickers(body: unknown): Parsed<TickerRecord>;
  serverTime(body: unknown): number;
  /** An error answer of status `status`. */
  refusal(status: number, text: string): Refusal;
  refusesSymbols?: (error: ExchangeError) => boolean;
  pauseAfter?: DialectErrors['pauseAfter'];
}

export function signedDialect<C>(spec: SignedDialectSpec<C>): Dialect<C> {
  const json = { coins: exactDecimalJson(spec.decimals.coins), tickers: exactDecimalJson(spec.decimals.tickers) };
  const { paths, weights, tickersOf } = spec;
  return {
    name: spec.name,
    defaults: { baseUrl: spec.baseUrl, symbolsCap: spec.symbolsCap, weightLimit: spec.weightLimit },
    credentials: spec.credentials,
    requests: {
      coins: () => ({ path: paths.coins, weight: weights.coins, signed: true }),
      tickers: (symbols) => ({
        path: symbols === undefined || tickersOf === undefined ? paths.tickers : tickersOf(symbols),
        weight: weights.tickers(tickersOf === undefined ? undefined : symbols?.length),
      }),
      serverTime: () => ({ path: paths.time, weight: weights.time }),
    },
    sign: spec.sign,
    decode: {
      parse: (text, endpoint) => json[endpoint].parseInTurns(text),
      coins: async (body, previous) => spec.coins(body, previous),
      tickers: async (body) => spec.tickers(body),
      serverTime: spec.serverTime,
    },
    errors: { read: spec.refusal, refusesSymbols: spec.refusesSymbols ?? (() => false), ...(spec.pauseAfter !== undefined && { pauseAfter: spec.pauseAfter }) },
  };
}

/** One raw coin into the model: `before` is its previous record, `issues` takes those of its networks (derived.ts readNetworks). */
export type CoinReader = (item: Json, before: CoinRecord | undefined, issues: RecordIssue[]) => CoinRecord;

/**
 * The coins of a list (decode-list.ts), each read with its previous record so that a network
 * whose flag is unknown keeps its last known value (derived.ts); the networks' issues first.
 */
export function decodeCoinsCarried(list: readonly unknown[], key: (item: unknown) => string | undefined, read: CoinReader, previous: ReadonlyMap<string, CoinRecord> | undefined): Parsed<CoinRecord> {
  const issues: RecordIssue[] = [];
  const parsed = decodeCoinList(list, key, (item) => {
    const coin = key(item);
    return read(item, coin === undefined ? undefined : previous?.get(coin), issues);
  });
  return { records: parsed.records, issues: [...issues, ...parsed.issues] };
}
