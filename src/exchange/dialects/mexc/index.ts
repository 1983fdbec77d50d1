/**
 * The dialect `mexc`: MEXC's Spot API v3, Binance-like (families/binance.ts) with its own key
 * header, codes and fields. The coins are SIGNED (a read-only key); the tickers are public.
 */
import { mappedDialect } from '../families/mapped';
import { capitalConfig, readBinanceRefusal, serverTimeOf, ticker24hr, tickers24hr } from '../families/binance';
import { COINS } from './decode';
import { signMexc } from './sign';
import { CLOCK_CODES, COIN_DECIMALS, credentials, MEXC_PATHS, TICKER_DECIMALS, WEIGHTS } from './wire';

export const mexc = mappedDialect({
  name: 'mexc',
  baseUrl: 'https://api.mexc.com',
  paths: MEXC_PATHS,
  weights: WEIGHTS,
  // "Each endpoint with IP limits has an independent 500 every 10 second limit" (Spot V3 "Limits").
  weightLimit: { max: 500, windowMs: 10_000 },
  // MEXC's 24hr ticker takes one `symbol` or none: every symbol is read and the watch list picked out.
  signed: { credentials, sign: signMexc, time: { path: MEXC_PATHS.time, weight: WEIGHTS.time }, serverTime: serverTimeOf },
  decimalKeys: { coins: COIN_DECIMALS, tickers: TICKER_DECIMALS },
  coinList: capitalConfig,
  tickerList: tickers24hr,
  coins: COINS,
  tickers: ticker24hr({ percent: 'ratio', count: false }),
  readRefusal: (status, text) => readBinanceRefusal(status, text, CLOCK_CODES),
});
