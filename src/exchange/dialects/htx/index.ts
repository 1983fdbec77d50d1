/**
 * The dialect `htx`: HTX's (Huobi's) public spot API (https://huobiapi.github.io/docs/spot/v1/en/),
 * mapped onto the model as dialects.md section 2 says. No key: both requests are public.
 */
import { mappedDialect } from '../families/mapped';
import { readEnvelopeRefusal } from '../families/public';
import { coinList, COINS, tickerList, TICKERS } from './decode';
import { ANY_ERROR, COIN_DECIMALS, HTX_PATHS, TICKER_DECIMALS, WEIGHTS } from './wire';

// /market/tickers has no list of symbols: the watch list is picked out of every symbol.
export const htx = mappedDialect({
  name: 'htx',
  baseUrl: 'https://api.huobi.pro',
  paths: HTX_PATHS,
  weights: WEIGHTS,
  // "If API Key is empty in request, then each IP is limited to 10 times per second" (Spot API
  // "Access Frequency Limits"): 100 per 10 s.
  weightLimit: { max: 100, windowMs: 10_000 },
  decimalKeys: { coins: COIN_DECIMALS, tickers: TICKER_DECIMALS },
  // Every ticker value is a JSON number (wire.ts): the pre-pass at once.
  bareDecimals: { tickers: 'usual' },
  coinList,
  tickerList,
  coins: COINS,
  tickers: TICKERS,
  readRefusal: readEnvelopeRefusal(ANY_ERROR),
});
