/**
 * OKX's paths, signing and codes (www.okx.com/docs-v5/en: "REST Authentication", "Get
 * currencies", "Get tickers", "Get system time", "Error Codes").
 */
import { z } from 'zod';

export const OKX_PATHS = { coins: '/api/v5/asset/currencies', tickers: '/api/v5/market/tickers?instType=SPOT', time: '/api/v5/public/time' } as const;

export const credentials = z.object({ api_key: z.string().min(1), api_secret: z.string().min(1), passphrase: z.string().min(1) }).strict();
export type OkxCredentials = z.output<typeof credentials>;

/**
 * OKX limits each endpoint by requests per window (currencies 6 per second, tickers 20 per
 * 2 s, time 10 per 2 s), not by weight: every request counts 1 against the configured budget.
 */
export const WEIGHTS = { coins: 1, time: 1, tickers: 1 } as const;

/** `50011` "Rate limit reached" (HTTP 429) and `50061` (sub-account rate limit): a pause. */
export const RATE_LIMIT_CODES = ['50011', '50061'] as const;
/** `50102` "Timestamp request expired", `50112` "Invalid OK-ACCESS-TIMESTAMP": the clock. */
export const CLOCK_CODES = ['50102', '50112'] as const;

/** Every value is a string in OKX's answers; these are kept exact should one come bare. */
export const COIN_DECIMALS = ['minFee', 'minWd', 'minDep'] as const;
export const TICKER_DECIMALS = ['last', 'open24h', 'bidPx', 'bidSz', 'askPx', 'askSz', 'high24h', 'low24h', 'vol24h', 'volCcy24h'] as const;
