/**
 * Gate's paths, weights, error body and decimal keys, as its spot API v4 documentation gives
 * them (https://www.gate.io/docs/developers/apiv4/).
 */
import type { Envelope } from '../families/public';

export const GATE_PATHS = { coins: '/api/v4/spot/currencies', tickers: '/api/v4/spot/tickers' } as const;

/**
 * Gate limits its public endpoints to 200 requests per 10 s per endpoint and IP: each
 * request costs 1, and the default budget of 200 per 10 s counts as Gate does.
 */
export const WEIGHTS = { coins: 1, tickers: 1 } as const;

/**
 * Gate's error body `{"label","message"}` (there is no envelope of success: answers are bare
 * arrays); `TOO_MANY_REQUESTS` comes with HTTP 429.
 */
export const ERRORS: Envelope = { statusKey: 'label', success: () => false, codeKeys: ['label'], msgKeys: ['message'], tooMany: ['TOO_MANY_REQUESTS'], shape: '[...]' };

/** No decimals in the coins but `fixed_rate` (ignored): kept as its text all the same. */
export const COIN_DECIMALS = ['fixed_rate'] as const;
export const TICKER_DECIMALS = ['last', 'lowest_ask', 'lowest_size', 'highest_bid', 'highest_size', 'change_percentage', 'base_volume', 'quote_volume', 'high_24h', 'low_24h'] as const;
