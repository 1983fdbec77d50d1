/**
 * Bybit's v5 authentication (HMAC): `X-BAPI-SIGN` is the hex HMAC-SHA256, keyed with the
 * secret, of timestamp + api key + recv window + the query string exactly as sent (`""` when
 * none), with `X-BAPI-API-KEY`, `X-BAPI-TIMESTAMP` (ms) and `X-BAPI-RECV-WINDOW`.
 */
import { createHmac } from 'node:crypto';
import type { Request } from '../../dialect';
import { RECV_WINDOW_MS, type BybitCredentials } from './wire';

export function bybitSignature(secret: string, timestamp: string, key: string, recvWindow: string, query: string): string {
  return createHmac('sha256', secret).update(`${timestamp}${key}${recvWindow}${query}`, 'utf8').digest('hex');
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

/** The query string of a path as sent (`""` when none). */
function queryOf(path: string): string {
  const at = path.indexOf('?');
  return at < 0 ? '' : path.slice(at + 1);
}
