/**
 * Binance's SIGNED (TRADE, USER_DATA and MARGIN) endpoint security: `recvWindow` and `timestamp`
 * appended to the query, then `signature`, the hex HMAC-SHA256, keyed with the secret, of the
 * whole query before it; the key in the header `X-MBX-APIKEY`.
 */
import { createHmac } from 'node:crypto';
import type { Request } from '../../dialect';
import { KEY_HEADER, RECV_WINDOW_MS, type BinanceCredentials } from './wire';

export function signBinance(request: Request, { api_key, api_secret }: BinanceCredentials, now: number): Request {
  // In the order of Binance's worked example (`...&recvWindow=5000&timestamp=1499827319559`).
  const path = `${request.path}${request.path.includes('?') ? '&' : '?'}recvWindow=${RECV_WINDOW_MS}&timestamp=${Math.floor(now)}`;
  const signature = createHmac('sha256', api_secret).update(path.slice(path.indexOf('?') + 1), 'utf8').digest('hex');
  return { ...request, path: `${path}&signature=${signature}`, headers: { ...request.headers, [KEY_HEADER]: api_key } };
}
