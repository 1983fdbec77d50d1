/**
 * MEXC's signed endpoints (Spot V3 "Signed"), Binance's scheme: `recvWindow` and `timestamp`
 * appended to the query, then `signature`, the hex HMAC-SHA256, keyed with the secret, of the
 * whole query before it; the key in the header `X-MEXC-APIKEY`.
 */
import { createHmac } from 'node:crypto';
import type { Request } from '../../dialect';
import { KEY_HEADER, RECV_WINDOW_MS, type MexcCredentials } from './wire';

export function signMexc(request: Request, { api_key, api_secret }: MexcCredentials, now: number): Request {
  const path = `${request.path}${request.path.includes('?') ? '&' : '?'}recvWindow=${RECV_WINDOW_MS}&timestamp=${Math.floor(now)}`;
  const signature = createHmac('sha256', api_secret).update(path.slice(path.indexOf('?') + 1), 'utf8').digest('hex');
  return { ...request, path: `${path}&signature=${signature}`, headers: { ...request.headers, [KEY_HEADER]: api_key } };
}
