/**
 * Binance's paths, request weights and refusal codes, as its Spot API documentation gives
 * them (developers.binance.com/docs: "All Coins' Information (USER_DATA)", "24hr Ticker Price
 * Change Statistics", "Check Server Time", "Error Codes", "SIGNED Endpoint security").
 */
import { z } from 'zod';

export const BINANCE_PATHS = { coins: '/sapi/v1/capital/config/getall', tickers: '/api/v3/ticker/24hr', time: '/api/v3/time' } as const;

/** `X-MBX-APIKEY`: the header of the API key. */
export const KEY_HEADER = 'X-MBX-APIKEY';

/** A read-only API key and its secret. */
export const credentials = z.object({ api_key: z.string().min(1), api_secret: z.string().min(1) }).strict();
export type BinanceCredentials = z.output<typeof credentials>;

/** The window (ms) a signed request is valid in after its timestamp: Binance's default. */
export const RECV_WINDOW_MS = 5_000;

/** getall: weight 10 (IP); time: 1; 24hr: 80 for every symbol (for a list of them: tickersWeight). */
export const WEIGHTS = { coins: 10, time: 1, tickers: 80 } as const;

/** 24hr for a list of symbols: 2 for 1-20 symbols, 40 for 21-100, 80 for more. */
export function tickersWeight(symbols: number): number {
  return symbols > 100 ? 80 : symbols <= 20 ? 2 : 40;
}

/**
 * The IP's weight limit (REQUEST_WEIGHT, per minute, `GET /api/v3/exchangeInfo` rateLimits) and
 * the header that reports what the IP has used of it in the current minute.
 */
export const WEIGHT_LIMIT = { perMinute: 6000, header: 'x-mbx-used-weight-1m' } as const;

/** `-1021 Timestamp for this request is outside of the recvWindow.`: the only clock refusal (`-1022` is a bad signature). */
export const CLOCK_CODES = ['-1021'] as const;

/** The decimals of each answer: all strings in Binance's answers; kept exact if ever sent bare. */
export const COIN_DECIMALS = ['withdrawFee', 'withdrawMin', 'withdrawInternalMin', 'withdrawIntegerMultiple', 'depositDust'] as const;
export const TICKER_DECIMALS = ['priceChange', 'priceChangePercent', 'lastPrice', 'bidPrice', 'bidQty', 'askPrice', 'askQty', 'openPrice', 'highPrice', 'lowPrice', 'volume', 'quoteVolume'] as const;
