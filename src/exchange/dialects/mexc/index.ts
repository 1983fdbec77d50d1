/**
 * The dialect `mexc`: MEXC's Spot API v3, Binance-like (binance-family.ts) with its own key
 * header, codes and fields. The coins are SIGNED (a read-only key); the tickers are public.
 */
import { decodeCapitalConfig, decodeTicker24hr, readBinanceRefusal, readTicker24hr, serverTimeOf } from '../binance-family';
import { signedDialect } from '../../signed-dialect';
import { readCoin } from './decode';
import { signMexc } from './sign';
import { CLOCK_CODES, COIN_DECIMALS, credentials, MEXC_PATHS, TICKER_DECIMALS, WEIGHTS } from './wire';

export const mexc = signedDialect({
  name: 'mexc',
  baseUrl: 'https://api.mexc.com',
  credentials,
  paths: MEXC_PATHS,
  weights: WEIGHTS,
  // "Each endpoint with IP limits has an independent 500 every 10 second limit" (Spot V3 "Limits").
  weightLimit: { max: 500, windowMs: 10_000 },
  // MEXC's 24hr ticker takes one `symbol` or none: every symbol is read and the watch list picked out.
  symbolsCap: 0,
  decimals: { coins: COIN_DECIMALS, tickers: TICKER_DECIMALS },
  sign: signMexc,
  coins: (body, previous) => decodeCapitalConfig(body, readCoin, previous),
  tickers: (body) => decodeTicker24hr(body, (o) => readTicker24hr(o, { percent: 'ratio', count: false })),
  serverTime: serverTimeOf,
  refusal: (status, text) => readBinanceRefusal(status, text, CLOCK_CODES),
});
