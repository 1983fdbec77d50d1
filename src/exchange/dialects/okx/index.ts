/**
 * The dialect `okx`: OKX's API v5. The currencies are SIGNED (key, secret and passphrase of a
 * read-only key); the tickers are public, one request for every SPOT ticker (it takes no list
 * of symbols). dialects.md section 2.
 */
import { mappedDialect } from '../families/mapped';
import { readRefusalWith } from '../../refusal';
import { COINS, coinsOf, dataOf, okxRefusal, serverTime, TICKERS } from './decode';
import { signOkx } from './sign';
import { COIN_DECIMALS, credentials, OKX_PATHS, TICKER_DECIMALS, WEIGHTS } from './wire';

export const okx = mappedDialect({
  name: 'okx',
  baseUrl: 'https://www.okx.com',
  paths: OKX_PATHS,
  weights: WEIGHTS,
  // Per endpoint, each request 1: currencies 6 per second (the strictest), tickers 20 per 2 s,
  // time 10 per 2 s (the endpoints' "Rate Limit" lines); one budget at the strictest of them.
  weightLimit: { max: 6, windowMs: 1_000 },
  signed: { credentials, sign: signOkx, time: { path: OKX_PATHS.time, weight: WEIGHTS.time }, serverTime },
  decimalKeys: { coins: COIN_DECIMALS, tickers: TICKER_DECIMALS },
  coinList: coinsOf,
  tickerList: (body) => ({ list: dataOf(body, 'tickers'), time: null }),
  coins: COINS,
  tickers: TICKERS,
  readRefusal: (status, text) => readRefusalWith(status, text, okxRefusal),
});
