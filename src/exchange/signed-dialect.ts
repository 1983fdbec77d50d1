/**
 * The shape every signed dialect shares (binance, mexc, okx, bybit): signed coins, public
 * tickers, the exchange's clock for the re-sync, exact decimals under the answer's own keys.
 * A dialect's folder gives only what is its own; this builds the Dialect object from it.
 */
import type { z } from 'zod';
import { sameCoin, sameTicker } from '../snapshot/merge';
import type { CoinRecord, RecordIssue, TickerRecord } from '../snapshot/model';
import { exactDecimalJson, parseJson } from './decimal';
import { decodeList, type ListReader } from './decode-list';
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
  /** The coins of a parsed answer, `previous` (the last snapshot's) giving the last known values of networks unknown now. */
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
      coins: (text, previous) => spec.coins(json.coins(text), previous),
      tickers: (text) => spec.tickers(json.tickers(text)),
      serverTime: (text) => spec.serverTime(parseJson(text)),
    },
    errors: { read: spec.refusal, refusesSymbols: spec.refusesSymbols ?? (() => false), ...(spec.pauseAfter !== undefined && { pauseAfter: spec.pauseAfter }) },
  };
}

/** One raw coin into the model: `before` is its previous record, `parts` takes the issues of its networks (derived.ts readNetworks). */
export type CoinReader = (item: Json, before: CoinRecord | undefined, parts: RecordIssue[]) => CoinRecord;

/**
 * The coins of a signed dialect's list (decode-list.ts), with the issues these dialects always
 * said: every copy's network issues first. `key` names the coin of a raw item (to find its
 * previous record, so that a network whose flag is unknown keeps its last known value, and for
 * the issue of one that fails).
 */
export function decodeCoinList(list: readonly unknown[], key: (item: unknown) => string | undefined, read: CoinReader, previous: ReadonlyMap<string, CoinRecord> | undefined): Parsed<CoinRecord> {
  const reader: ListReader<CoinRecord> = {
    entity: 'coin',
    key,
    read: (item, _key, before, parts) => read(item, before, parts),
    same: sameCoin,
    twice: 'coin appears twice with different values',
    parts: 'first',
  };
  return decodeList(reader, list, previous);
}

/** The tickers of a signed dialect's list; a ticker that fails is an issue without its symbol (as these dialects always said). */
export function decodeTickerList(list: readonly unknown[], read: (item: Json) => TickerRecord): Parsed<TickerRecord> {
  const reader: ListReader<TickerRecord> = {
    entity: 'ticker',
    key: () => undefined,
    read: (item) => read(item),
    same: sameTicker,
    twice: 'symbol appears twice with different values',
    parts: 'of-taken',
  };
  return decodeList(reader, list);
}
