/**
 * The dialect `binance`: Binance's Spot API. The coins are the capital config of the account
 * (SIGNED, a read-only key is enough); the tickers are public. dialects.md section 2.
 */
import type { Dialect } from '../../dialect';
import { binanceCredentials, decodeCapitalConfig, decodeTicker24hr, readBinanceRefusal, serverTimeOf, signQuery, type BinanceCredentials } from '../../binance-family';
import { exactDecimalJson } from '../../decimal';
import { readCoin, readTicker } from './decode';
import { BINANCE_PATHS, CLOCK_CODES, COIN_DECIMALS, KEY_HEADER, TICKER_DECIMALS, tickersWeight, WEIGHTS } from './wire';

const JSON_OF = { coins: exactDecimalJson(COIN_DECIMALS), tickers: exactDecimalJson(TICKER_DECIMALS) };

export const binance = {
  name: 'binance',
  defaults: { baseUrl: 'https://api.binance.com', symbolsCap: 100 },
  credentials: binanceCredentials,
  requests: {
    coins: () => ({ path: BINANCE_PATHS.coins, weight: WEIGHTS.coins, signed: true }),
    tickers: (symbols) => ({
      path: symbols === undefined ? BINANCE_PATHS.tickers : `${BINANCE_PATHS.tickers}?symbols=${encodeURIComponent(JSON.stringify(symbols))}`,
      weight: tickersWeight(symbols?.length),
    }),
    serverTime: () => ({ path: BINANCE_PATHS.time, weight: WEIGHTS.time }),
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
    // -1121 Invalid symbol (and -1100 for a malformed one): a watch list naming a symbol Binance does not list.
    refusesSymbols: (error) => error.kind === 'http_4xx' && (error.code === '-1121' || error.code === '-1100'),
  },
} satisfies Dialect<BinanceCredentials>;
