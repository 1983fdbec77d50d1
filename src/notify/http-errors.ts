import { errors } from 'undici';
import { parseRetryAfter } from '../lib/retry-after';
import { NotifyError } from './notifier';

/**
 * How an HTTP receiver's failure is classified, for every receiver that speaks HTTP
 * (webhook, Alertmanager): 5xx, 429, timeouts and connection errors are worth retrying; other
 * answers are not. A 429's or a 503's `Retry-After` (seconds or an HTTP date, RFC 9110) sets
 * the next attempt. `who` names the far end in the message.
 */
export function statusError(who: string, status: number, retryAfter: string | string[] | undefined, now: number): NotifyError {
  const after = status === 429 || status === 503 ? parseRetryAfter(retryAfter, now) : undefined;
  if (status === 429) return new NotifyError(`${who} answered HTTP 429`, 'rate_limited', true, after);
  if (status >= 500) return new NotifyError(`${who} answered HTTP ${status}`, 'server_error', true, after);
  return new NotifyError(`${who} answered HTTP ${status}`, 'client_error', false);
}

export function transportError(who: string, err: unknown, timeoutMs: number): NotifyError {
  // Duck-typed: DOMException and Node's own errors may come from another realm (instanceof fails).
  const name = typeof err === 'object' && err !== null ? String((err as { name?: unknown }).name) : '';
  if (name === 'TimeoutError' || name === 'AbortError' || err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError || err instanceof errors.ConnectTimeoutError) {
    return new NotifyError(`${who} did not answer within ${timeoutMs} ms`, 'timeout', true);
  }
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  return new NotifyError(`${who} unreachable (${String(e?.cause?.code ?? e?.code ?? 'error')})`, 'connect', true);
}
