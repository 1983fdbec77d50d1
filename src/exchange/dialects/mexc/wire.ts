/**
 * MEXC's paths, weights and refusal codes (mexcdevelop.github.io/apidocs/spot_v3_en: "Query
 * the currency information", "24hr Ticker Price Change Statistics", "Check Server Time",
 * "Error Code", "Signed").
 */
import { z } from 'zod';

export const MEXC_PATHS = { coins: '/api/v3/capital/config/getall', tickers: '/api/v3/ticker/24hr', time: '/api/v3/time' } as const;

/** `X-MEXC-APIKEY`: the header of the API key (Binance's is `X-MBX-APIKEY`). */
export const KEY_HEADER = 'X-MEXC-APIKEY';

/** A read-only API key and its secret. */
export const credentials = z.object({ api_key: z.string().min(1), api_secret: z.string().min(1) }).strict();
export type MexcCredentials = z.output<typeof credentials>;

/** The window (ms) a signed request is valid in after its timestamp: MEXC's default, as Binance's. */
export const RECV_WINDOW_MS = 5_000;

/** getall: weight 10; 24hr: 1 for one symbol, 40 for all (MEXC takes no list of symbols); time: 1. */
export const WEIGHTS = { coins: 10, time: 1, tickers: 40 } as const;

/** `700003 Timestamp for this request is outside of the recvWindow.` */
export const CLOCK_CODES = ['700003'] as const;

export const COIN_DECIMALS = ['withdrawFee', 'withdrawMin', 'withdrawIntegerMultiple'] as const;
export const TICKER_DECIMALS = ['priceChange', 'priceChangePercent', 'lastPrice', 'bidPrice', 'bidQty', 'askPrice', 'askQty', 'openPrice', 'highPrice', 'lowPrice', 'volume', 'quoteVolume'] as const;
