/**
 * Bybit's paths, signing and codes (bybit-exchange.github.io/docs/v5: "Integration Guidance"
 * (authentication), "Get Coin Info", "Get Tickers", "Get Bybit Server Time", "Error Codes",
 * "Rate Limit").
 */
import { z } from 'zod';

export const BYBIT_PATHS = { coins: '/v5/asset/coin/query-info', tickers: '/v5/market/tickers?category=spot', time: '/v5/market/time' } as const;

export const credentials = z.object({ api_key: z.string().min(1), api_secret: z.string().min(1) }).strict();
export type BybitCredentials = z.output<typeof credentials>;

/** `X-BAPI-RECV-WINDOW`: Bybit's default, 5000 ms. */
export const RECV_WINDOW_MS = 5_000;

/** Bybit limits requests per second per endpoint and 600 per 5 s per IP, not by weight: each counts 1. */
export const WEIGHTS = { coins: 1, time: 1, tickers: 1 } as const;

/** `10006` "Too many visits!" and `10018` "Exceeded the IP Rate Limit": a pause. */
export const RATE_LIMIT_CODES = ['10006', '10018'] as const;
/** `10002` "invalid request, please check your server timestamp or recv_window param". */
export const CLOCK_CODES = ['10002'] as const;

/** Every value is a string in Bybit's answers; these are kept exact should one come bare. */
export const COIN_DECIMALS = ['withdrawFee', 'withdrawMin', 'depositMin'] as const;
export const TICKER_DECIMALS = ['lastPrice', 'prevPrice24h', 'price24hPcnt', 'bid1Price', 'bid1Size', 'ask1Price', 'ask1Size', 'highPrice24h', 'lowPrice24h', 'volume24h', 'turnover24h'] as const;
