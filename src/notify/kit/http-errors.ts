import type { IncomingHttpHeaders } from 'node:http';
import { errors } from 'undici';
import { REDACTED } from '../../lib/redact-url';
import { parseRetryAfter } from '../../lib/retry-after';
import { NotifyError } from '../notifier';
import { oneLine } from './text';

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

/** What a failed answer's service said (the raw body, or a reading of it), and the wait it asked for in its own way. */
export interface ServiceSaid {
  /** Its own words, quoted in the message (on one line, cut at SAID_LIMIT). */
  said?: string | undefined;
  /** A wait it asked for besides `Retry-After` (a JSON field, another header), in milliseconds. */
  retryAfterMs?: number | undefined;
  /** Text that must never reach a message (a token the service might echo back). */
  secrets?: readonly string[];
}

/** How much of what a service said goes into a message (logs, dead letters, test-notify). */
export const SAID_LIMIT = 500;

/**
 * statusError for an answer whose body was read (http-post.ts's postForAnswer): the same
 * classification, with the service's own words in the message, so that test-notify, the logs and
 * the dead letters show why (`Slack answered HTTP 404: no_service`).
 */
export function answerError(who: string, answer: { status: number; headers: IncomingHttpHeaders }, now: number, service: ServiceSaid = {}): NotifyError {
  const e = statusError(who, answer.status, answer.headers['retry-after'], now);
  let said = oneLine(service.said ?? '').trim();
  for (const secret of service.secrets ?? []) if (secret !== '') said = said.split(secret).join(REDACTED);
  if (said.length > SAID_LIMIT) said = `${said.slice(0, SAID_LIMIT)}...`;
  const after = e.retryable && service.retryAfterMs !== undefined ? Math.max(service.retryAfterMs, e.retryAfterMs ?? 0) : e.retryAfterMs;
  return new NotifyError(said === '' ? e.message : `${e.message}: ${said}`, e.reason, e.retryable, after);
}

/** A failed answer's body as a JSON object, when it is one (a service's error body). */
export function answerJson(body: string): Readonly<Record<string, unknown>> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** What of a URL is a secret when the URL itself is one (a chat webhook's): the URL, its path and each long path segment (the token). */
export function urlSecrets(url: string): string[] {
  const parsed = new URL(url);
  return [url, parsed.href, parsed.pathname, ...parsed.pathname.split('/').filter((s) => s.length >= 16)];
}
