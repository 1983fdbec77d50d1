/**
 * The shape every signed dialect shares (binance, mexc, okx, bybit): signed coins, public
 * tickers, the exchange's clock for the re-sync, exact decimals under the answer's own keys.
 * A dialect's folder gives only what is its own; this builds the Dialect object from it.
 * The client's record memory is passed from the parse to the decode (decode-list.ts): in a
 * changed answer, a record whose text is unchanged is neither parsed nor read again.
 */
import type { z } from 'zod';
import type { CoinRecord, TickerRecord } from '../snapshot/model';
import type { RecordsAt } from '../lib/json-records';
import { inTurns } from '../lib/timer';
import type { AnswerMemory } from './decode-records';
import { exactDecimalJson } from './decimal';
import type { Dialect, DialectErrors, Refusal, Request, WeightLimit } from './dialect';
import type { ExchangeError } from './errors';
import type { Parsed } from './read';

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
  /** Where each answer's records are, when not a bare array or under `data` (lib/json-records.ts): they are parsed and remembered one by one. */
  recordsAt?: { readonly coins: RecordsAt; readonly tickers: RecordsAt };
  sign(request: Request, credentials: C, now: number): Request;
  /**
   * The coins, `previous` (the last snapshot's) giving the last known values of networks
   * unknown now; `memory` the client's for the request (decode-list.ts), to be given to the
   * loop that reads the list as the parse left it. In turns: a generator (lib/timer.ts inTurns).
   */
  coins(body: unknown, previous: ReadonlyMap<string, CoinRecord> | undefined, memory: AnswerMemory | undefined): Generator<void, Parsed<CoinRecord>, void>;
  tickers(body: unknown, memory: AnswerMemory | undefined): Generator<void, Parsed<TickerRecord>, void>;
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
      parse: (text, endpoint, memory) => json[endpoint].parseInTurns(text, memory, spec.recordsAt?.[endpoint]),
      // async: a decode that throws before its loop starts (an error envelope) is a rejection, as any other.
      coins: async (body, previous, memory) => inTurns(spec.coins(body, previous, memory)),
      tickers: async (body, _previous, memory) => inTurns(spec.tickers(body, memory)),
      serverTime: spec.serverTime,
    },
    errors: { read: spec.refusal, refusesSymbols: spec.refusesSymbols ?? (() => false), ...(spec.pauseAfter !== undefined && { pauseAfter: spec.pauseAfter }) },
  };
}
