/**
 * The dialect `bybit`: Bybit's API v5. The coin info is SIGNED (a read-only key); the tickers
 * are public, one request for every spot ticker (`symbol` takes one). dialects.md section 2.
 */
import { mappedDialect } from '../families/mapped';
import { readRefusalWith } from '../../refusal';
import { bybitRefusal, COINS, listOf, serverTime, tickerList, TICKERS } from './decode';
import { signBybit } from './sign';
import { BYBIT_PATHS, COIN_DECIMALS, credentials, TICKER_DECIMALS, WEIGHTS } from './wire';

export const bybit = mappedDialect({
  name: 'bybit',
  baseUrl: 'https://api.bybit.com',
  paths: BYBIT_PATHS,
  weights: WEIGHTS,
  // "600 requests within a 5-second window per IP" (v5 "Rate Limit", HTTP IP limit), each request 1.
  weightLimit: { max: 600, windowMs: 5_000 },
  signed: { credentials, sign: signBybit, time: { path: BYBIT_PATHS.time, weight: WEIGHTS.time }, serverTime },
  decimalKeys: { coins: COIN_DECIMALS, tickers: TICKER_DECIMALS },
  coinList: (body) => listOf(body, 'rows', 'coins'),
  tickerList,
  coins: COINS,
  tickers: TICKERS,
  // 403 "access too frequent": the IP is banned for a while (Bybit's rate-limit docs); 429 too many.
  readRefusal: (status, text) => {
    const out = readRefusalWith(status, text, bybitRefusal);
    if (status === 403) out.pause = 'banned';
    return out;
  },
});
