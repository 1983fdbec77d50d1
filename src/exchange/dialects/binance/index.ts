/**
 * The dialect `binance`: Binance's Spot API. The coins are the capital config of the account
 * (SIGNED, a read-only key is enough); the tickers are public. dialects.md section 2.
 */
import { decodeCapitalConfig, decodeTicker24hr, readBinanceRefusal, readTicker24hr, serverTimeOf } from '../binance-family';
import { signedDialect } from '../../signed-dialect';
import { readCoin } from './decode';
import { signBinance } from './sign';
import { BINANCE_PATHS, CLOCK_CODES, COIN_DECIMALS, credentials, TICKER_DECIMALS, WEIGHT_LIMIT, WEIGHTS } from './wire';

export const binance = signedDialect({
  name: 'binance',
  baseUrl: 'https://api.binance.com',
  credentials,
  paths: BINANCE_PATHS,
  weights: WEIGHTS,
  // REQUEST_WEIGHT 6,000 per minute per IP (Spot API "LIMITS", `exchangeInfo` rateLimits). The
  // /sapi endpoints have their own 12,000 per minute; one budget for both counts the lower.
  weightLimit: { max: WEIGHT_LIMIT.perMinute, windowMs: 60_000 },
  symbolsCap: 100,
  tickersOf: (symbols) => `${BINANCE_PATHS.tickers}?symbols=${encodeURIComponent(JSON.stringify(symbols))}`,
  decimals: { coins: COIN_DECIMALS, tickers: TICKER_DECIMALS },
  sign: signBinance,
  coins: (body, previous) => decodeCapitalConfig(body, readCoin, previous),
  tickers: (body) => decodeTicker24hr(body, (o) => readTicker24hr(o, { percent: 'percentage', count: true })),
  serverTime: serverTimeOf,
  refusal: (status, text) => readBinanceRefusal(status, text, CLOCK_CODES),
  // -1121 Invalid symbol (and -1100 for a malformed one): a watch list naming a symbol Binance does not list.
  refusesSymbols: (error) => error.kind === 'http_4xx' && (error.code === '-1121' || error.code === '-1100'),
  // Another client on the same IP spends the same minute's weight: when the heaviest request
  // (all tickers, 80) would pass the limit, wait for the next minute rather than take a 429.
  pauseAfter: (headers, now) => {
    const used = Number(headers[WEIGHT_LIMIT.header]);
    return used > WEIGHT_LIMIT.perMinute - WEIGHTS.tickers(undefined) ? 60_000 - (now % 60_000) : undefined;
  },
});
