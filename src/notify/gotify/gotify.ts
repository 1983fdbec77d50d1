import { answerError, answerJson } from '../kit/http-errors';
import { postJson, succeeded, type HttpDeps, type PostAnswer } from '../kit/http-post';
import type { Delivery, Notifier, NotifyError } from '../notifier';
import { SentParts } from '../kit/sent-parts';
import { gotifyMessages } from './message';
import { wallNow } from '../../lib/clock';

export interface GotifyOptions {
  name: string;
  /** The server's base URL; messages go to `{url}/message`. */
  url: string;
  /** The application's token, sent as `X-Gotify-Key`. */
  token: string;
  timeoutMs: number;
  markdown: boolean;
}

/** The header Gotify reads an application token from (the `?token=` query would reach access logs). */
export const GOTIFY_KEY_HEADER = 'X-Gotify-Key';

/** `{url}/message`, keeping a path the server is published under (`https://host/gotify/message`). */
export function messageUrl(base: string): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/message`;
  return url;
}

/**
 * The `gotify` receiver: each group as one or more `POST /message` (message.ts), in order. Gotify
 * answers 200 with the stored message; 400 (a body it cannot read; 3.x: a client's token without
 * an appid), 401 (no token, a wrong one, 2.x: a client's token) and 403 are permanent, with Gotify's `error` and `errorDescription`; 5xx, and a 429 from a
 * proxy in front of it, are retried after the `Retry-After` asked. A retry starts after the
 * messages already accepted, so a storm split in parts does not buzz a phone twice.
 */
export function gotifyNotifier(options: GotifyOptions, http: HttpDeps): Notifier {
  const url = messageUrl(options.url);
  const sent = new SentParts();
  return {
    name: options.name,
    async send({ notification, idempotencyKey }: Delivery, signal?: AbortSignal) {
      const messages = gotifyMessages(notification, options.markdown);
      await sent.sendEach(idempotencyKey, messages, async (message) => {
        const answer = await postJson(url, message, {
          http, who: 'Gotify', timeoutMs: options.timeoutMs, signal, headers: { [GOTIFY_KEY_HEADER]: options.token }, privateHeaders: [GOTIFY_KEY_HEADER],
        });
        if (!succeeded(answer)) throw gotifyError(answer, wallNow(http.clock), [options.token]);
      });
    },
  };
}

/** A failed answer as Gotify words it: `{"error": "Unauthorized", "errorCode": 401, "errorDescription": "..."}`. */
export function gotifyError(answer: PostAnswer, now: number, secrets: readonly string[] = []): NotifyError {
  const json = answerJson(answer.body);
  const error = typeof json?.error === 'string' ? json.error : undefined;
  const description = typeof json?.errorDescription === 'string' ? json.errorDescription : undefined;
  const said = error !== undefined || description !== undefined ? [error, description].filter(Boolean).join(': ') : answer.body;
  return answerError('Gotify', answer, now, { said, secrets });
}
