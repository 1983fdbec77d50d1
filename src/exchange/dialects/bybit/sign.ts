/**
 * Bybit's v5 authentication (HMAC): `X-BAPI-SIGN` is the hex HMAC-SHA256, keyed with the
 * secret, of timestamp + api key + recv window + the query string exactly as sent (`""` when
 * none), with `X-BAPI-API-KEY`, `X-BAPI-TIMESTAMP` (ms) and `X-BAPI-RECV-WINDOW`.
 */
import type { Request } from '../../dialect';
import { hmacSha256, queryOf } from '../../hmac';
import { RECV_WINDOW_MS, type BybitCredentials } from './wire';

export function bybitSignature(secret: string, timestamp: string, key: string, recvWindow: string, query: string): string {
  return hmacSha256(secret, `${timestamp}${key}${recvWindow}${query}`, 'hex');
}

export function signBybit(request: Request, { api_key, api_secret }: BybitCredentials, now: number): Request {
  const timestamp = String(Math.floor(now));
  const recvWindow = String(RECV_WINDOW_MS);
  return {
    ...request,
    headers: {
      ...request.headers,
      'X-BAPI-API-KEY': api_key,
      'X-BAPI-TIMESTAMP': timestamp,
      'X-BAPI-RECV-WINDOW': recvWindow,
      'X-BAPI-SIGN': bybitSignature(api_secret, timestamp, api_key, recvWindow, queryOf(request.path)),
    },
  };
}
