/**
 * Calls to the Telegram Bot API (`POST {api_url}/bot{token}/{method}`, a JSON body) and what its
 * answers mean: `{"ok":true,"result":...}`, or `{"ok":false,"error_code","description",
 * "parameters":{"retry_after","migrate_to_chat_id"}}`. The token is part of every URL, so no
 * message built here carries a URL or the token (`scrub`).
 */
import { parseRetryAfter } from '../../lib/retry-after';
import { postJson, type HttpDeps } from '../kit/http-post';
import { NotifyError } from '../notifier';
import { wallNow } from '../../lib/clock';

/** Where a bot's calls go. */
export interface BotTarget {
  apiUrl: string;
  token: string;
}

/** A failed call, as the Bot API explains it. */
export interface BotFailure {
  ok: false;
  status: number;
  errorCode: number;
  description: string;
  /** `parameters.retry_after` (flood control), in milliseconds. */
  retryAfterMs?: number;
  /** `parameters.migrate_to_chat_id`: the group became this supergroup. */
  migrateTo?: number;
}

export type BotAnswer<T> = { ok: true; result: T } | BotFailure;

/** getUpdates with 100 long messages is well under this; anything larger is not the Bot API. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The bot's token, and any `/bot<token>/` path, out of a text that may reach a log or a reply. */
export function scrub(text: string, token: string): string {
  const out = text.replace(/\/bot[^/\s]*\//g, '/bot[redacted]/');
  return token === '' ? out : out.split(token).join('[redacted]');
}

function methodUrl(bot: BotTarget, method: string): URL {
  const url = new URL(bot.apiUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/bot${bot.token}/${method}`;
  return url;
}

/** `retryAfterHeaderMs`: the answer's `Retry-After` (parseRetryAfter), for an answer that is not the Bot API's (a proxy's 429 or 503). */
function failureOf(status: number, text: string, retryAfterHeaderMs: number | undefined): BotFailure {
  let parsed: { error_code?: unknown; description?: unknown; parameters?: { retry_after?: unknown; migrate_to_chat_id?: unknown } } = {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null) parsed = value;
  } catch {
    // Not the Bot API's JSON (a proxy's error page): the status says enough.
  }
  const retryAfter = parsed.parameters?.retry_after;
  const retryAfterMs = typeof retryAfter === 'number' && retryAfter >= 0 ? Math.round(retryAfter * 1000) : retryAfterHeaderMs;
  const migrateTo = parsed.parameters?.migrate_to_chat_id;
  return {
    ok: false,
    status,
    errorCode: typeof parsed.error_code === 'number' ? parsed.error_code : status,
    description: typeof parsed.description === 'string' ? parsed.description.slice(0, 500) : `HTTP ${status}`,
    ...(retryAfterMs !== undefined && { retryAfterMs }),
    ...(typeof migrateTo === 'number' && { migrateTo }),
  };
}

/**
 * One call, within `timeoutMs` (timed as postNotification times a send). A failed call is
 * returned, explained; a call that got no answer (timeout, refused) throws a NotifyError, or
 * `signal`'s reason once it is aborted.
 */
export async function callBot<T>(http: HttpDeps, bot: BotTarget, method: string, params: object, timeoutMs: number, signal?: AbortSignal): Promise<BotAnswer<T>> {
  const url = methodUrl(bot, method);
  let answer: { status: number; text: string; retryAfter: number | undefined };
  try {
    // Every answer is the Bot API's JSON, read whole or not at all ('' when refused: no answer, as a body cut would be).
    const { status, headers, body } = await postJson(url, params, {
      http, who: `Telegram ${method}`, timeoutMs, signal, redirects: 'none', answer: { of: 'every', limit: MAX_ANSWER_BYTES, over: 'refuse', broken: 'throw' },
    });
    answer = { status, retryAfter: parseRetryAfter(headers['retry-after'], wallNow(http.clock)), text: body };
  } catch (err) {
    // No answer (timeout, connection): the message must not carry the token; an abort's reason is the caller's own.
    if (err instanceof NotifyError && !signal?.aborted) throw new NotifyError(scrub(err.message, bot.token), err.reason, err.retryable);
    throw err;
  }
  const { status, text, retryAfter } = answer;
  if (status < 200 || status >= 300) return failureOf(status, text, retryAfter);
  try {
    const value = JSON.parse(text) as { ok?: unknown; result?: T };
    if (value.ok === true) return { ok: true, result: value.result as T };
    if (value.ok === false) return failureOf(status, text, retryAfter);
  } catch {
    // Below: a 2xx that is not the Bot API's answer (a proxy's page, a cut body).
  }
  return { ok: false, status, errorCode: 502, description: `HTTP ${status} with a body that is not the Bot API's answer` };
}

/**
 * What a failed send means for the retry stage: flood control (429) waits `retry_after`; a
 * server error is retried; a chat not found, a bot blocked or removed (400, 403), a revoked
 * token (401, 404) are not, and the message carries Telegram's own description.
 */
export function sendFailure(method: string, f: BotFailure, token: string): NotifyError {
  const said = scrub(f.description, token);
  if (f.status === 429 || f.errorCode === 429) return new NotifyError(`Telegram ${method} answered 429: ${said}`, 'rate_limited', true, f.retryAfterMs);
  if (f.status >= 500 || f.errorCode >= 500) return new NotifyError(`Telegram ${method} answered ${f.status}: ${said}`, 'server_error', true, f.retryAfterMs);
  if (f.migrateTo !== undefined) return new NotifyError(`Telegram ${method} answered ${f.status}: ${said} (the group is now a supergroup: set chat_id to "${f.migrateTo}")`, 'client_error', false);
  return new NotifyError(`Telegram ${method} answered ${f.status}: ${said}`, 'client_error', false);
}
