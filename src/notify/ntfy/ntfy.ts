import { answerError, answerJson } from '../kit/http-errors';
import { postJson, succeeded, type HttpDeps, type PostAnswer } from '../kit/http-post';
import type { Delivery, Notifier, NotifyError } from '../notifier';
import { SentParts } from '../kit/sent-parts';
import { ntfyMessages } from './message';
import type { NtfyConfig } from './schema';
import { wallNow } from '../../lib/clock';

/** The server's root, where JSON is published (a self-hosted server may live under a path). */
export function publishUrl(base: string): URL {
  const url = new URL(base);
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  url.search = '';
  url.hash = '';
  return url;
}

/** `Authorization` for an access token (Bearer) or a user and password (Basic), none otherwise. */
export function ntfyAuth(c: Pick<NtfyConfig, 'token' | 'username' | 'password'>): string | undefined {
  if (c.token !== undefined) return `Bearer ${c.token}`;
  if (c.username !== undefined && c.password !== undefined) return `Basic ${Buffer.from(`${c.username}:${c.password}`, 'utf8').toString('base64')}`;
  return undefined;
}

/** What must never reach a message: the topic (on a public server, the only secret), the token, the password. */
export function ntfySecrets(c: NtfyConfig): string[] {
  const auth = ntfyAuth(c);
  return [c.topic, c.token ?? '', c.password ?? '', auth?.replace(/^\w+ /, '') ?? ''].filter((s) => s !== '');
}

/**
 * The `ntfy` receiver: a group as one or more JSON publishes (message.ts), sent in order. A
 * retry starts after the messages already accepted, so a 429 halfway through a storm does not
 * publish the first half again. 429 and 5xx are retried (a `Retry-After` honoured; ntfy's 429
 * has none: at least 5 s, an hour for the daily quota); other 4xx (a wrong token, a topic the user
 * may not write) are permanent, with ntfy's own words.
 */
export function ntfyNotifier(name: string, c: NtfyConfig, http: HttpDeps): Notifier {
  const url = publishUrl(c.url);
  const auth = ntfyAuth(c);
  const secrets = ntfySecrets(c);
  const headers: Record<string, string> = auth !== undefined ? { authorization: auth } : {};
  const sent = new SentParts();
  return {
    name,
    async send({ notification, idempotencyKey }: Delivery, signal?: AbortSignal) {
      const messages = ntfyMessages(notification, c.topic);
      await sent.sendEach(idempotencyKey, messages, async (message) => {
        const answer = await postJson(url, message, { http, who: 'ntfy', timeoutMs: c.timeout, signal, headers, privateHeaders: ['authorization'] });
        if (!succeeded(answer)) throw ntfyError(answer, wallNow(http.clock), secrets);
      });
    },
  };
}

/**
 * The least wait after ntfy's 429, which sends no Retry-After: its visitor request bucket (a
 * burst of 60) refills one request every 5 seconds (42901, and 42909 for auth failures).
 */
export const NTFY_REQUEST_REFILL_MS = 5_000;
/** The wait after 42908, the visitor's daily message quota used up (ntfy.sh's free tier: 250 a day). */
export const NTFY_DAILY_QUOTA_WAIT_MS = 3_600_000;
const DAILY_QUOTA = 42908;

/** A failed answer as ntfy words it: `{"code": 40101, "http": 401, "error": "unauthorized", "link"}`. */
export function ntfyError(answer: PostAnswer, now: number, secrets: readonly string[] = []): NotifyError {
  const json = answerJson(answer.body);
  const said = typeof json?.error === 'string' ? `${json.error}${typeof json.code === 'number' ? ` (code ${json.code})` : ''}` : answer.body;
  const retryAfterMs = answer.status === 429 ? (json?.code === DAILY_QUOTA ? NTFY_DAILY_QUOTA_WAIT_MS : NTFY_REQUEST_REFILL_MS) : undefined;
  return answerError('ntfy', answer, now, { said, secrets, retryAfterMs });
}
