/**
 * The signing of Binance's SIGNED (USER_DATA) endpoints, which MEXC copies: `timestamp` (ms) and
 * an optional `recvWindow` in the query, then `signature` = hex HMAC-SHA256(secret, the query
 * string before `&signature`), the key in a header. Binance: "SIGNED Endpoint security",
 * https://developers.binance.com/docs/binance-spot-api-docs/rest-api/endpoint-security-type
 * (a request is refused when timestamp < serverTime - recvWindow or timestamp > serverTime + 1000).
 */
import { header, hmacHex, sameText } from './common';
import type { DialectRequest, SimCredentials } from './types';

export type QueryRefusal = 'noKey' | 'badKey' | 'missing' | 'badSignature' | 'stale';

const DEFAULT_RECV_WINDOW = 5000;
const MAX_RECV_WINDOW = 60_000;
const AHEAD_MS = 1000;

export function checkQuerySignature(
  req: DialectRequest,
  keyHeader: string,
  credentials: SimCredentials | undefined,
): { refusal: QueryRefusal; param?: string } | undefined {
  const key = header(req.headers, keyHeader);
  if (key === '') return { refusal: 'noKey' };
  if (credentials === undefined || !sameText(key, credentials.apiKey)) return { refusal: 'badKey' };
  const timestamp = req.query.get('timestamp');
  if (timestamp === null || !/^\d+$/.test(timestamp)) return { refusal: 'missing', param: 'timestamp' };
  const signed = /(?:^|&)signature=([^&]*)$/.exec(req.rawQuery);
  if (signed === null || signed[1] === '') return { refusal: 'missing', param: 'signature' };
  const payload = req.rawQuery.slice(0, signed.index);
  if (!sameText(signed[1] as string, hmacHex(credentials.apiSecret, payload))) return { refusal: 'badSignature' };
  const recvWindow = Math.min(Number(req.query.get('recvWindow') ?? DEFAULT_RECV_WINDOW) || DEFAULT_RECV_WINDOW, MAX_RECV_WINDOW);
  const ts = Number(timestamp);
  if (ts < req.now - recvWindow || ts > req.now + AHEAD_MS) return { refusal: 'stale' };
  return undefined;
}
