/**
 * The dialect `kucoin`: KuCoin's public spot API (https://www.kucoin.com/docs-new), mapped
 * onto the model as dialects.md section 2 says. No key: both requests are public.
 */
import { mappedDialect } from '../families/mapped';
import { readEnvelopeRefusal } from '../families/public';
import { coinList, COINS, tickerList, TICKERS } from './decode';
import { COIN_DECIMALS, ENVELOPE, KUCOIN_PATHS, TICKER_DECIMALS, WEIGHTS } from './wire';

// allTickers has no list of symbols: the watch list is picked out of every symbol.
export const kucoin = mappedDialect({
  name: 'kucoin',
  baseUrl: 'https://api.kucoin.com',
  paths: KUCOIN_PATHS,
  weights: WEIGHTS,
  weightLimit: { max: 2_000, windowMs: 30_000 },
  decimalKeys: { coins: COIN_DECIMALS, tickers: TICKER_DECIMALS },
  coinList,
  tickerList,
  coins: COINS,
  tickers: TICKERS,
  readRefusal: readEnvelopeRefusal(ENVELOPE),
});
