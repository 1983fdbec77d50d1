import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { anySignal } from '../../lib/abort';
import { deadline, timeoutError } from '../../lib/deadline';
import { statusError, transportError } from './http-errors';
import { NotifyError } from '../notifier';
import { readCapped, type CappedRead } from './read-body';
import type { ReceiverDeps } from '../plugin';
import { wallNow } from '../../lib/clock';

/** What a receiver that speaks HTTP is given: the connection pool, and the clock (a Retry-After date). */
export type HttpDeps = Pick<ReceiverDeps, 'dispatcher' | 'clock'>;

/** How many redirects a receiver's POST follows before giving up (Alertmanager's Go client allows 10; 3 covers a moved endpoint). */
export const MAX_REDIRECTS = 3;

/** 301 and 302 are followed as 307 and 308 are: with the same method and body (see postFollowingRedirects). */
const FOLLOWED = new Set([301, 302, 307, 308]);

/** How much of a failed answer is read: enough for any service's error body, never a flood. */
export const ANSWER_LIMIT = 64 * 1024;

/** Which answers' bodies are read, and how far (read-body.ts): `failures`, a 4xx's or 5xx's words; `every`, an API's answer too. */
export interface AnswerRead extends CappedRead {
  of: 'failures' | 'every';
}

/** A notification's POST reads a failed answer's words: its first ANSWER_LIMIT bytes, and what arrived before a broken connection (the status is known). */
const FAILED_ANSWER: AnswerRead = { of: 'failures', limit: ANSWER_LIMIT, over: 'cut', broken: 'partial' };

export interface PostRequest {
  url: URL;
  /** POST unless said (Matrix sends an event by PUT, its transaction id in the path). */
  method?: 'POST' | 'PUT';
  headers: Record<string, string>;
  /** Headers that may carry credentials: not sent on to another host or port. */
  privateHeaders?: readonly string[];
  body: string;
  signal: AbortSignal;
  headersTimeout?: number;
  bodyTimeout?: number;
  /** The URL's path holds a credential (a chat webhook's token): messages name its scheme and host only. */
  secretUrl?: boolean;
}

export interface PostAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Where the answer came from (after redirects). */
  url: URL;
  /** What a failed answer (4xx, 5xx) said, up to ANSWER_LIMIT bytes; '' for a success, whose body is not read (unless AnswerRead says `every`), and for a body refused as too long. */
  body: string;
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
  const answer = await postForAnswer(http, who, request, timeoutMs, signal);
  if (succeeded(answer)) return;
  throw statusError(who, answer.status, answer.headers['retry-after'], wallNow(http.clock));
}

/**
 * postNotification without the verdict on the status (postJson's way): the answer, for a receiver
 * that reads what its service says (a chat service's error body, a wait it asks for in its own
 * way) before it classifies the failure. Transport failures, timeouts and redirects are
 * classified as there.
 */
async function postForAnswer(
  http: HttpDeps, who: string, request: Omit<PostRequest, 'signal'>, timeoutMs: number, signal?: AbortSignal, how: Exchange = NOTIFICATION,
): Promise<PostAnswer> {
  return withinDeadline(who, timeoutMs, signal, (linked) => postFollowingRedirects(http.dispatcher, who, { ...request, signal: linked }, how));
}

/** How a request is made and its answer read: a notification's POST, or an API's call (PostJsonOptions.redirects, .answer). */
interface Exchange {
  redirects: 'follow' | 'none';
  answer: AnswerRead;
}

const NOTIFICATION: Exchange = { redirects: 'follow', answer: FAILED_ANSWER };

/**
 * `call` with a signal that aborts it after `timeoutMs` (lib/deadline's, which a stall of our own
 * event loop does not trip) or with `signal`. A failure is `signal`'s reason once it is aborted, a
 * NotifyError as it is, anything else transportError's reading (timeout, connection): every
 * receiver's request is timed and classified alike, whatever it sends.
 */
async function withinDeadline<T>(who: string, timeoutMs: number, signal: AbortSignal | undefined, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const timeout = new AbortController();
  const timer = deadline(timeoutMs, () => timeout.abort(timeoutError(timeoutMs)));
  const linked = anySignal(signal ? [signal, timeout.signal] : [timeout.signal]);
  try {
    return await call(linked.signal);
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (err instanceof NotifyError) throw err;
    throw transportError(who, err, timeoutMs);
  } finally {
    timer.cancel();
    linked.release();
  }
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
async function postFollowingRedirects(dispatcher: ReceiverDeps['dispatcher'], who: string, request: PostRequest, how: Exchange): Promise<PostAnswer> {
  const seen = new Set<string>();
  let url = request.url;
  const withUser = how.redirects === 'follow' ? withUserInfo(request) : request;
  const { privateHeaders } = withUser;
  let { headers } = withUser;
  for (let redirects = 0; ; redirects += 1) {
    seen.add(url.href);
    const res = await dispatcher.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: request.method ?? 'POST',
      headers,
      body: request.body,
      signal: request.signal,
      ...(request.headersTimeout !== undefined && { headersTimeout: request.headersTimeout }),
      ...(request.bodyTimeout !== undefined && { bodyTimeout: request.bodyTimeout }),
    });
    const status = res.statusCode;
    const body = await answerText(res.body, status, how.answer);
    if (how.redirects === 'none' || status < 300 || status >= 400) return { status, headers: res.headers, url, body };
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
      throw redirectError(`${who} redirected (HTTP ${status}) from ${request.url.protocol}// to ${next.protocol}//, which is not followed: set the receiver's url to ${redact(next, request.secretUrl)}`);
    }
    if (seen.has(next.href)) throw redirectError(`${who} redirect loop: HTTP ${status} from ${redact(url, request.secretUrl)} back to ${redact(next, request.secretUrl)}`);
    if (redirects >= MAX_REDIRECTS) throw redirectError(`${who} redirected more than ${MAX_REDIRECTS} times (last to ${redact(next, request.secretUrl)})`);
    if (next.origin !== url.origin && privateHeaders !== undefined) headers = withoutPrivate(headers, privateHeaders);
    url = next;
  }
}

/** A redirect that cannot be followed will not be followed on a later attempt either: not retried. */
function redirectError(message: string): NotifyError {
  return new NotifyError(message, 'client_error', false);
}

/**
 * A user and password written in the URL (`https://user:pass@host/hook`) are sent as HTTP Basic
 * authentication, as curl and browsers send them (the request goes to the URL's origin, which
 * holds neither), unless the receiver sets an Authorization of its own; like every credential, the
 * header is dropped when a redirect leaves the origin.
 */
function withUserInfo(request: PostRequest): { headers: Record<string, string>; privateHeaders: readonly string[] | undefined } {
  const { url, headers, privateHeaders } = request;
  const own = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
  if ((url.username === '' && url.password === '') || own) return { headers, privateHeaders };
  const basic = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64');
  return { headers: { ...headers, authorization: `Basic ${basic}` }, privateHeaders: [...(privateHeaders ?? []), 'authorization'] };
}

function withoutPrivate(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  const drop = new Set(names.map((n) => n.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop.has(name.toLowerCase())));
}

/** A URL for a message: without credentials or query (which may hold a token), nor its path when that is the secret. */
function redact(url: URL, secretPath = false): string {
  return `${url.protocol}//${url.host}${secretPath ? '/<redacted>' : url.pathname}`;
}

/** The body of an answer as `read` says (read-body.ts); one not to be read is drained, up to ANSWER_LIMIT, so the connection can be used again. */
async function answerText(body: Dispatcher.ResponseData['body'], status: number, read: AnswerRead): Promise<string> {
  if (read.of === 'every' || status >= 400) return (await readCapped(body as AsyncIterable<Buffer>, read)) ?? '';
  await body.dump({ limit: ANSWER_LIMIT }).catch(() => undefined);
  return '';
}

export interface PostJsonOptions {
  http: HttpDeps;
  /** Who answers, as messages name it (`ntfy`, `Telegram sendMessage`). */
  who: string;
  /** From when the body is ready to go to the answer read (postNotification says how it is timed); also undici's headers and body timeouts. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** POST unless said (Matrix sends an event by PUT, its transaction id in the path). */
  method?: 'POST' | 'PUT';
  /** Sent after the content type (JSON) and the user agent: a token, say (named in privateHeaders too). */
  headers?: Readonly<Record<string, string>>;
  /** Headers that may carry credentials: not sent on to another host or port. */
  privateHeaders?: readonly string[];
  /** The URL's path holds a credential (a chat webhook's token): messages name its scheme and host only. */
  secretUrl?: boolean;
  /**
   * `follow` (a notification's POST, the default): redirects followed as postFollowingRedirects
   * says, a user and password in the URL sent as Basic. `none` (an API's own call: Pushover's, the
   * Bot API's): one request to the URL's origin and path, a redirect being an answer like any other.
   */
  redirects?: 'follow' | 'none';
  /** Which answers' bodies are read, and how far: a failed one's words, ANSWER_LIMIT bytes at most, unless said. */
  answer?: AnswerRead;
}

/**
 * A value as JSON, sent by POST (or PUT) within `timeoutMs`, every receiver's request timed and
 * its failure to answer classified alike (transportError; a redirect that cannot be followed,
 * redirectError); the answer, for the receiver to read what its service says before it
 * classifies a failed status (`succeeded`, http-errors.ts's answerError).
 */
export function postJson(url: URL, payload: unknown, options: PostJsonOptions): Promise<PostAnswer> {
  const { http, who, timeoutMs, signal } = options;
  return postForAnswer(http, who, {
    url,
    ...(options.method !== undefined && { method: options.method }),
    headers: { 'content-type': 'application/json', 'user-agent': 'spotwatch', ...options.headers },
    ...(options.privateHeaders !== undefined && { privateHeaders: options.privateHeaders }),
    body: JSON.stringify(payload),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    ...(options.secretUrl === true && { secretUrl: true }),
  }, timeoutMs, signal, { redirects: options.redirects ?? 'follow', answer: options.answer ?? FAILED_ANSWER });
}

/** Whether an answer is a success (2xx). */
export function succeeded(answer: PostAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}
