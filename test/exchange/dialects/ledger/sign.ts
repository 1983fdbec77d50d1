/** How ledger signs: an HMAC-SHA256 of timestamp + path, with the key and the timestamp in headers. */
import { createHmac } from 'node:crypto';
import type { Request } from '../../../../src/exchange/dialect';
import type { LedgerCredentials } from './wire';

/** The signature of a request stamped `ts` (what the exchange checks). */
export function ledgerSignature(secret: string, ts: string, path: string): string {
  return createHmac('sha256', secret).update(`${ts}${path}`).digest('hex');
}

export function signLedger(request: Request, { api_key, api_secret }: LedgerCredentials, now: number): Request {
  const ts = String(now);
  return { ...request, headers: { ...request.headers, 'x-ledger-key': api_key, 'x-ledger-ts': ts, 'x-ledger-sign': ledgerSignature(api_secret, ts, request.path) } };
}
