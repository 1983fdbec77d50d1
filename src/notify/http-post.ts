import type { IncomingHttpHeaders } from 'node:http';
import { anySignal } from '../lib/abort';
import { deadline, timeoutError } from '../lib/deadline';
import { statusError, transportError } from './http-errors';
import { NotifyError } from './notifier';
import type { ReceiverDeps } from './plugin';

/** What a receiver that speaks HTTP is given: the connection pool, and the clock (a Retry-After date). */
export type HttpDeps = Pick<ReceiverDeps, 'dispatcher' | 'clock'>;

/** How many redirects a receiver's POST follows before giving up (Alertmanager's Go client allows 10; 3 covers a moved endpoint). */
export const MAX_REDIRECTS = 3;

/** 301 and 302 are followed as 307 and 308 are: with the same method and body (see postFollowingRedirects). */
const FOLLOWED = new Set([301, 302, 307, 308]);

export interface PostRequest {
  url: URL;
  headers: Record<string, string>;
  /** Headers that may carry credentials: not sent on to another host or port. */
  privateHeaders?: readonly string[];
  body: string;
  signal: AbortSignal;
  headersTimeout?: number;
  bodyTimeout?: number;
}

export interface PostAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Where the answer came from (after redirects). */
  url: URL;
}

/**
 * Delivers a notification by POST (postFollowingRedirects) within `timeoutMs`, for every
 * receiver that speaks HTTP: a 2xx returns; anything else throws the NotifyError that
 * classifies it (statusError, transportError), or `signal`'s reason once it is aborted.
 * Timed from when the body is ready to go; a stall of our own event loop does not count (an
 * answer that arrived meanwhile is read first), so a busy process never reports a receiver that
 * answered at once as timed out, and never sends it the body twice.
 */
export async function postNotification(
  http: HttpDeps, who: string, request: Omit<PostRequest, 'signal'>, timeoutMs: number, signal?: AbortSignal,
): Promise<void> {
  const timeout = new AbortController();
  const timer = deadline(timeoutMs, () => timeout.abort(timeoutError(timeoutMs)));
  const linked = anySignal(signal ? [signal, timeout.signal] : [timeout.signal]);
  let answer: PostAnswer;
  try {
    answer = await postFollowingRedirects(http.dispatcher, who, { ...request, signal: linked.signal });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (err instanceof NotifyError) throw err;
    throw transportError(who, err, timeoutMs);
  } finally {
    timer.cancel();
    linked.release();
  }
  if (answer.status >= 200 && answer.status < 300) return;
  throw statusError(who, answer.status, answer.headers['retry-after'], http.clock.now());
}

/**
 * POSTs a notification, following up to MAX_REDIRECTS redirects of the same scheme. A
 * notification must arrive as it was sent, so every followed redirect repeats the POST with the
 * same body and headers: 307 and 308 require it, and for 301 and 302 the historical switch to
 * GET would drop the notification while looking delivered. A 303 asks for a GET of another
 * resource, which cannot deliver anything: it is not followed. A redirect to another scheme
 * (https -> http would expose the body; http -> https means the URL in the config is out of date),
 * a loop, and a chain longer than the limit are errors that say so, not client errors.
 */
export async function postFollowingRedirects(dispatcher: ReceiverDeps['dispatcher'], who: string, request: PostRequest): Promise<PostAnswer> {
  const seen = new Set<string>();
  let url = request.url;
  let headers = request.headers;
  for (let redirects = 0; ; redirects += 1) {
    seen.add(url.href);
    const res = await dispatcher.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: 'POST',
      headers,
      body: request.body,
      signal: request.signal,
      ...(request.headersTimeout !== undefined && { headersTimeout: request.headersTimeout }),
      ...(request.bodyTimeout !== undefined && { bodyTimeout: request.bodyTimeout }),
    });
    await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    const status = res.statusCode;
    if (status < 300 || status >= 400) return { status, headers: res.headers, url };
    if (status === 303) throw redirectError(`${who} answered HTTP 303 See Other: not followed (it asks for a GET, which would not deliver the notification)`);
    const location = res.headers.location;
    if (!FOLLOWED.has(status) || typeof location !== 'string') {
      throw new NotifyError(`${who} answered HTTP ${status}${FOLLOWED.has(status) ? ' without a Location' : ''}`, 'client_error', false);
    }
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw redirectError(`${who} answered HTTP ${status} to an invalid Location ${JSON.stringify(location.slice(0, 200))}`);
    }
    if (next.protocol !== request.url.protocol) {
      throw redirectError(`${who} redirected (HTTP ${status}) from ${request.url.protocol}// to ${next.protocol}//, which is not followed: set the receiver's url to ${redact(next)}`);
    }
    if (seen.has(next.href)) throw redirectError(`${who} redirect loop: HTTP ${status} from ${redact(url)} back to ${redact(next)}`);
    if (redirects >= MAX_REDIRECTS) throw redirectError(`${who} redirected more than ${MAX_REDIRECTS} times (last to ${redact(next)})`);
    if (next.origin !== url.origin && request.privateHeaders !== undefined) headers = withoutPrivate(headers, request.privateHeaders);
    url = next;
  }
}

/** A redirect that cannot be followed will not be followed on a later attempt either: not retried. */
function redirectError(message: string): NotifyError {
  return new NotifyError(message, 'client_error', false);
}

function withoutPrivate(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  const drop = new Set(names.map((n) => n.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop.has(name.toLowerCase())));
}

/** A URL for a message: without credentials or query (which may hold a token). */
function redact(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}
