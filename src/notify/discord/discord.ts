import type { IncomingHttpHeaders } from 'node:http';
import type { ChatService } from '../kit/chat-webhook';
import { answerError, answerJson } from '../kit/http-errors';
import type { PostAnswer } from '../kit/http-post';
import type { NotifyError } from '../notifier';
import { discordMessage } from './message';

/**
 * Discord: each group as one message through the channel's webhook (Execute Webhook,
 * message.ts). `wait=true` makes Discord confirm that it saved the message, so that a message it
 * refuses is an error here rather than lost. A 429's wait (its JSON `retry_after`, `Retry-After`,
 * `X-RateLimit-Reset-After`) is honoured; other 4xx are permanent, with Discord's message and
 * code; 5xx are retried.
 */
export const discordService: ChatService = {
  who: 'Discord',
  url(webhookUrl) {
    const url = new URL(webhookUrl);
    url.searchParams.set('wait', 'true');
    return url;
  },
  message: discordMessage,
  failure: discordError,
};

/** A failed answer as Discord words it: `{"message", "code", "errors"}`, and a 429's `retry_after` (seconds). */
export function discordError(answer: PostAnswer, now: number, secrets: readonly string[] = []): NotifyError {
  const json = answerJson(answer.body);
  const retryAfterMs = answer.status === 429 ? waitAsked(json?.retry_after, answer.headers) : undefined;
  return answerError('Discord', answer, now, { said: json !== undefined ? discordSaid(json) : answer.body, retryAfterMs, secrets });
}

/** The longest of the waits Discord asks for: `retry_after` in the body, `X-RateLimit-Reset-After` (seconds, with decimals). */
function waitAsked(retryAfter: unknown, headers: IncomingHttpHeaders): number | undefined {
  const reset = Number(headers['x-ratelimit-reset-after']);
  const waits = [Number(retryAfter), reset].filter((s) => Number.isFinite(s) && s >= 0).map((s) => Math.ceil(s * 1000));
  return waits.length > 0 ? Math.max(...waits) : undefined;
}

/** `Invalid Form Body (code 50035): embeds.0.title: Must be 256 or fewer in length.` */
function discordSaid(json: Readonly<Record<string, unknown>>): string {
  const message = typeof json.message === 'string' ? json.message : JSON.stringify(json);
  const code = typeof json.code === 'number' || typeof json.code === 'string' ? ` (code ${json.code})` : '';
  const details = formErrors(json.errors, '');
  return `${message}${code}${details.length > 0 ? `: ${details.join('; ')}` : ''}`;
}

/** Discord's `errors` tree (`{"embeds": {"0": {"title": {"_errors": [{"code", "message"}]}}}}`) as `path: message` lines. */
function formErrors(tree: unknown, path: string, out: string[] = []): string[] {
  if (typeof tree !== 'object' || tree === null || out.length >= 10) return out;
  for (const [key, value] of Object.entries(tree)) {
    if (key === '_errors' && Array.isArray(value)) {
      for (const e of value as unknown[]) {
        const message = typeof e === 'object' && e !== null ? (e as { message?: unknown }).message : undefined;
        out.push(`${path || 'body'}: ${typeof message === 'string' ? message : JSON.stringify(e)}`);
      }
    } else {
      formErrors(value, path === '' ? key : `${path}.${key}`, out);
    }
  }
  return out;
}
