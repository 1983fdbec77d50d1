/**
 * Bitget's paths, weights, envelope and decimal keys, as its public spot API v2 documentation
 * gives them (https://www.bitget.com/api-doc/spot/intro).
 */
import type { Envelope } from '../families/public';

export const BITGET_PATHS = { coins: '/api/v2/spot/public/coins', tickers: '/api/v2/spot/market/tickers' } as const;

/**
 * Bitget limits public requests per IP and per endpoint, in requests per second: coins 3/s,
 * tickers 20/s (the endpoints' "Rate limit" lines). As weights of one budget of 20 per
 * second: a tickers request costs 1, a coins request 7 (20/3, rounded up).
 */
export const WEIGHTS = { coins: 7, tickers: 1 } as const;

/** `{"code":"00000","msg","requestTime","data"}`; `"429"` is Bitget's "too many requests" (sent with HTTP 429). */
export const ENVELOPE: Envelope = { statusKey: 'code', success: (v) => v === '00000', codeKeys: ['code'], msgKeys: ['msg'], tooMany: ['429'], shape: '{"code": "00000", "data": [...]}' };

/** Every value is a string in Bitget's answers; these are kept exact should one come bare. */
export const COIN_DECIMALS = ['withdrawFee', 'minWithdrawAmount', 'minDepositAmount', 'withdrawStep'] as const;
export const TICKER_DECIMALS = ['lastPr', 'open', 'high24h', 'low24h', 'bidPr', 'bidSz', 'askPr', 'askSz', 'baseVolume', 'quoteVolume', 'change24h'] as const;
