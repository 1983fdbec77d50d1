/**
 * OKX's REST authentication: `OK-ACCESS-SIGN` is the base64 HMAC-SHA256, keyed with the secret,
 * of timestamp + method + request path (with its query) + body; `OK-ACCESS-TIMESTAMP` is ISO
 * 8601 UTC with milliseconds (`2020-12-08T09:08:57.715Z`), within 30 s of OKX's clock.
 */
import { createHmac } from 'node:crypto';
import type { Request } from '../../dialect';
import type { OkxCredentials } from './wire';

/** The signature of a GET of `path` (no body) stamped `timestamp`. */
export function okxSignature(secret: string, timestamp: string, path: string): string {
  return createHmac('sha256', secret).update(`${timestamp}GET${path}`, 'utf8').digest('base64');
}

export function signOkx(request: Request, { api_key, api_secret, passphrase }: OkxCredentials, now: number): Request {
  const timestamp = new Date(Math.floor(now)).toISOString();
  return {
    ...request,
    headers: {
      ...request.headers,
      'OK-ACCESS-KEY': api_key,
      'OK-ACCESS-PASSPHRASE': passphrase,
      'OK-ACCESS-TIMESTAMP': timestamp,
      'OK-ACCESS-SIGN': okxSignature(api_secret, timestamp, request.path),
    },
  };
}
