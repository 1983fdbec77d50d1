/**
 * HTX's (Huobi's) paths, weights, envelopes and decimal keys, as its spot API documentation gives
 * them (https://huobiapi.github.io/docs/spot/v1/en/).
 */
import type { Envelope } from '../families/public';

export const HTX_PATHS = { coins: '/v2/reference/currencies', tickers: '/market/tickers' } as const;

/**
 * HTX limits requests per IP and per interface, without weights: each request costs 1
 * against the default budget below.
 */
export const WEIGHTS = { coins: 1, tickers: 1 } as const;

/**
 * HTX's "too many requests" (`{"status":"error","err-code":"api-request-too-frequent","err-msg":
 * "Request too frequent. Please try again later."}`, with or without HTTP 429); `429` for a v2
 * body that carries the status as its code.
 */
const TOO_MANY = ['api-request-too-frequent', '429'];

/** The reference data's envelope (`code` is 200, sent as a number or, in some recorded answers, as a string). */
export const REFERENCE: Envelope = {
  statusKey: 'code', success: (v) => v === 200 || v === '200', codeKeys: ['code'], msgKeys: ['message', 'msg'], tooMany: TOO_MANY, shape: '{"code": 200, "data": [...]}',
};

/** The market data's envelope. */
export const MARKET: Envelope = {
  statusKey: 'status', success: (v) => v === 'ok', codeKeys: ['err-code'], msgKeys: ['err-msg'], tooMany: TOO_MANY, shape: '{"status": "ok", "data": [...]}',
};

/** Either envelope's error body, for an answer of status other than 2xx. */
export const ANY_ERROR: Envelope = { ...MARKET, codeKeys: ['err-code', 'code'], msgKeys: ['err-msg', 'message', 'msg'] };

export const COIN_DECIMALS = ['transactFeeWithdraw', 'minTransactFeeWithdraw', 'minWithdrawAmt', 'minDepositAmt'] as const;
/** Every ticker value is a JSON number written by Java (`8988.0`, `2.3822168242201668E8`): their text is kept (rule 1). */
export const TICKER_DECIMALS = ['open', 'close', 'high', 'low', 'amount', 'vol', 'bid', 'bidSize', 'ask', 'askSize'] as const;
