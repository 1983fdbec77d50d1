/**
 * The dialect `mexc`: MEXC's Spot API v3, Binance-like (binance-family.ts) with its own key
 * header, codes and fields. The coins are SIGNED (a read-only key); the tickers are public.
 */
import type { Dialect } from '../../dialect';
import { binanceCredentials, decodeCapitalConfig, decodeTicker24hr, readBinanceRefusal, serverTimeOf, signQuery, type BinanceCredentials } from '../../binance-family';
import { exactDecimalJson } from '../../decimal';
import { readCoin, readTicker } from './decode';
import { CLOCK_CODES, COIN_DECIMALS, KEY_HEADER, MEXC_PATHS, TICKER_DECIMALS, WEIGHTS } from './wire';

const JSON_OF = { coins: exactDecimalJson(COIN_DECIMALS), tickers: exactDecimalJson(TICKER_DECIMALS) };

export const mexc = {
  name: 'mexc',
  // MEXC's 24hr ticker takes one `symbol` or none: every symbol is read and the watch list picked out.
  defaults: { baseUrl: 'https://api.mexc.com', symbolsCap: 0 },
  credentials: binanceCredentials,
  requests: {
    coins: () => ({ path: MEXC_PATHS.coins, weight: WEIGHTS.coins, signed: true }),
    tickers: () => ({ path: MEXC_PATHS.tickers, weight: WEIGHTS.tickers }),
    serverTime: () => ({ path: MEXC_PATHS.time, weight: WEIGHTS.time }),
  },
  sign: (request, credentials, now) => signQuery(request, KEY_HEADER, credentials, now),
  decode: {
    parse: (text, endpoint) => JSON_OF[endpoint].parseInTurns(text),
    coins: async (body) => decodeCapitalConfig(body, readCoin),
    tickers: async (body) => decodeTicker24hr(body, readTicker),
    serverTime: serverTimeOf,
  },
  errors: {
    read: (status, text) => readBinanceRefusal(status, text, CLOCK_CODES),
    refusesSymbols: () => false,
  },
} satisfies Dialect<BinanceCredentials>;
