/**
 * The dialect `bybit`: Bybit's API v5. The coin info is SIGNED (a read-only key); the tickers
 * are public, one request for every spot ticker (`symbol` takes one). dialects.md section 2.
 */
import { readRefusalWith } from '../../refusal';
import { signedDialect } from '../../signed-dialect';
import { bybitRefusal, decodeCoins, decodeTickers, serverTime } from './decode';
import { signBybit } from './sign';
import { BYBIT_PATHS, COIN_DECIMALS, credentials, TICKER_DECIMALS, WEIGHTS } from './wire';

export const bybit = signedDialect({
  name: 'bybit',
  baseUrl: 'https://api.bybit.com',
  credentials,
  paths: BYBIT_PATHS,
  weights: WEIGHTS,
  // "600 requests within a 5-second window per IP" (v5 "Rate Limit", HTTP IP limit), each request 1.
  weightLimit: { max: 600, windowMs: 5_000 },
  symbolsCap: 0,
  decimals: { coins: COIN_DECIMALS, tickers: TICKER_DECIMALS },
  sign: signBybit,
  coins: decodeCoins,
  tickers: decodeTickers,
  serverTime,
  // 403 "access too frequent": the IP is banned for a while (Bybit's rate-limit docs); 429 too many.
  refusal: (status, text) => {
    const out = readRefusalWith(status, text, bybitRefusal);
    if (status === 403) out.pause = 'banned';
    return out;
  },
});
