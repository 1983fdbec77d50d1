import { answerError, answerJson } from '../kit/http-errors';
import { postJson, succeeded, type HttpDeps, type PostAnswer } from '../kit/http-post';
import type { Delivery, Notifier, NotifyError } from '../notifier';
import { SentParts } from '../kit/sent-parts';
import { pagerdutyEvents, type EventOptions } from './events';
import { wallNow } from '../../lib/clock';

export interface PagerDutyOptions extends EventOptions {
  name: string;
  /** Events API v2's enqueue URL. */
  url: string;
  timeoutMs: number;
}

/**
 * The `pagerduty` receiver: a group's notification as one Events API v2 event per alert
 * (events.ts), sent in order. PagerDuty answers 202; a 400 is permanent, with its `errors`;
 * 429 and 5xx are retried. A retry starts after the events already accepted: in a storm of
 * thousands of alerts a 429 halfway does not send the first half again (and if it does, after
 * a restart, PagerDuty folds a repeated trigger or resolve into the same incident).
 */
export function pagerdutyNotifier(options: PagerDutyOptions, http: HttpDeps): Notifier {
  const url = new URL(options.url);
  /** Events accepted so far of notifications not yet wholly sent. */
  const sent = new SentParts();
  return {
    name: options.name,
    async send({ notification, idempotencyKey }: Delivery, signal?: AbortSignal) {
      const events = pagerdutyEvents(notification, options);
      await sent.sendEach(idempotencyKey, events, async (event) => {
        const answer = await postJson(url, event, { http, who: 'PagerDuty', timeoutMs: options.timeoutMs, signal });
        if (!succeeded(answer)) throw pagerdutyError(answer, wallNow(http.clock), [options.routingKey]);
      });
    },
  };
}

/** A failed answer as PagerDuty words it: `{"status", "message", "errors": [...]}`. */
export function pagerdutyError(answer: PostAnswer, now: number, secrets: readonly string[] = []): NotifyError {
  const json = answerJson(answer.body);
  const errors = Array.isArray(json?.errors) ? json.errors.map(String) : [];
  const message = typeof json?.message === 'string' ? json.message : typeof json?.status === 'string' ? json.status : undefined;
  const said = message !== undefined ? `${message}${errors.length > 0 ? `: ${errors.join('; ')}` : ''}` : answer.body;
  return answerError('PagerDuty', answer, now, { said, secrets });
}
