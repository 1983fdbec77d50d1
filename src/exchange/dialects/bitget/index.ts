/**
 * The dialect `bitget`: Bitget's public spot API v2 (https://www.bitget.com/api-doc/spot/intro),
 * mapped onto the model as dialects.md section 2 says. No key: both requests are public.
 */
import { mappedDialect } from '../families/mapped';
import { readEnvelopeRefusal } from '../families/public';
import { coinList, COINS, tickerList, TICKERS } from './decode';
import { BITGET_PATHS, COIN_DECIMALS, ENVELOPE, TICKER_DECIMALS, WEIGHTS } from './wire';

// `?symbol=` names one symbol: the whole list costs one request, and the watch list is picked out of it.
export const bitget = mappedDialect({
  name: 'bitget',
  baseUrl: 'https://api.bitget.com',
  paths: BITGET_PATHS,
  weights: WEIGHTS,
  weightLimit: { max: 20, windowMs: 1_000 },
  decimalKeys: { coins: COIN_DECIMALS, tickers: TICKER_DECIMALS },
  coinList,
  tickerList,
  coins: COINS,
  tickers: TICKERS,
  readRefusal: readEnvelopeRefusal(ENVELOPE),
});
