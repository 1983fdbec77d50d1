/**
 * The dialect `gate`: Gate's public spot API v4 (https://www.gate.io/docs/developers/apiv4/),
 * mapped onto the model as dialects.md section 2 says. No key: both requests are public.
 */
import { mappedDialect } from '../families/mapped';
import { readEnvelopeRefusal } from '../families/public';
import { coinList, COINS, tickerList, TICKERS } from './decode';
import { COIN_DECIMALS, ERRORS, GATE_PATHS, TICKER_DECIMALS, WEIGHTS } from './wire';

// `?currency_pair=` names one pair: the whole list costs one request, and the watch list is picked out of it.
export const gate = mappedDialect({
  name: 'gate',
  baseUrl: 'https://api.gateio.ws',
  paths: GATE_PATHS,
  weights: WEIGHTS,
  weightLimit: { max: 200, windowMs: 10_000 },
  decimalKeys: { coins: COIN_DECIMALS, tickers: TICKER_DECIMALS },
  coinList,
  tickerList,
  coins: COINS,
  tickers: TICKERS,
  readRefusal: readEnvelopeRefusal(ERRORS),
});
