/**
 * KuCoin's paths, weights, envelope and decimal keys, as its public spot API documentation gives
 * them (https://www.kucoin.com/docs-new).
 */
import type { Envelope } from '../families/public';

export const KUCOIN_PATHS = { coins: '/api/v3/currencies', tickers: '/api/v1/market/allTickers' } as const;

/**
 * KuCoin's documented request weights in its public pool (2,000 per 30 s per IP): Get All
 * Currencies 3, Get All Tickers 15: the default budget is that pool, as KuCoin counts.
 */
export const WEIGHTS = { coins: 3, tickers: 15 } as const;

/** `{"code":"200000","data"}`; `"429000"` is KuCoin's "Too Many Requests" (sent with HTTP 429). */
export const ENVELOPE: Envelope = { statusKey: 'code', success: (v) => v === '200000', codeKeys: ['code'], msgKeys: ['msg'], tooMany: ['429000'], shape: '{"code": "200000", "data": ...}' };

export const COIN_DECIMALS = ['withdrawalMinFee', 'withdrawalMinSize', 'depositMinSize'] as const;
export const TICKER_DECIMALS = ['buy', 'bestBidSize', 'sell', 'bestAskSize', 'changeRate', 'changePrice', 'high', 'low', 'vol', 'volValue', 'last'] as const;
