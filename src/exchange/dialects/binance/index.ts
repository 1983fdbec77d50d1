/**
 * The dialect `binance`: Binance's Spot API. The coins are the capital config of the account
 * (SIGNED, a read-only key is enough); the tickers are public. dialects.md section 2.
 */
import { mappedDialect } from '../families/mapped';
import { capitalConfig, readBinanceRefusal, serverTimeOf, ticker24hr, tickers24hr } from '../families/binance';
import { COINS } from './decode';
import { signBinance } from './sign';
import { BINANCE_PATHS, CLOCK_CODES, COIN_DECIMALS, credentials, TICKER_DECIMALS, tickersWeight, WEIGHT_LIMIT, WEIGHTS } from './wire';

export const binance = mappedDialect({
  name: 'binance',
  baseUrl: 'https://api.binance.com',
  paths: BINANCE_PATHS,
  weights: WEIGHTS,
  // REQUEST_WEIGHT 6,000 per minute per IP (Spot API "LIMITS", `exchangeInfo` rateLimits). The
  // /sapi endpoints have their own 12,000 per minute; one budget for both counts the lower.
  weightLimit: { max: WEIGHT_LIMIT.perMinute, windowMs: 60_000 },
  watchList: {
    cap: 100,
    request: (symbols) => ({ path: `${BINANCE_PATHS.tickers}?symbols=${encodeURIComponent(JSON.stringify(symbols))}`, weight: tickersWeight(symbols.length) }),
  },
  signed: { credentials, sign: signBinance, time: { path: BINANCE_PATHS.time, weight: WEIGHTS.time }, serverTime: serverTimeOf },
  decimalKeys: { coins: COIN_DECIMALS, tickers: TICKER_DECIMALS },
  coinList: capitalConfig,
  tickerList: tickers24hr,
  coins: COINS,
  tickers: ticker24hr({ percent: 'percentage', count: true }),
  readRefusal: (status, text) => readBinanceRefusal(status, text, CLOCK_CODES),
  // -1121 Invalid symbol (and -1100 for a malformed one): a watch list naming a symbol Binance does not list.
  refusesSymbols: (error) => error.kind === 'http_4xx' && (error.code === '-1121' || error.code === '-1100'),
  // Another client on the same IP spends the same minute's weight: when the heaviest request
  // (all tickers, 80) would pass the limit, wait for the next minute rather than take a 429.
  pauseAfter: (headers, now) => {
    const used = Number(headers[WEIGHT_LIMIT.header]);
    return used > WEIGHT_LIMIT.perMinute - WEIGHTS.tickers ? 60_000 - (now % 60_000) : undefined;
  },
});
