import { answerError, urlSecrets } from '../http-errors';
import { postJson, succeeded, type HttpDeps } from '../http-post';
import type { Delivery, Notifier } from '../notifier';
import { slackMessage, type SlackTemplates } from './message';

export interface SlackOptions {
  name: string;
  /** The incoming webhook's URL, `https://hooks.slack.com/services/...`: a secret. */
  webhookUrl: string;
  timeoutMs: number;
  templates?: SlackTemplates;
}

/**
 * The `slack` receiver: each group as one message through an incoming webhook (message.ts).
 * Slack answers `ok`, or an error as a plain-text word (`invalid_payload`, `no_service`,
 * `channel_is_archived`...) quoted in the error; a 429's `Retry-After` is honoured, other 4xx are
 * permanent, 5xx are retried.
 */
export function slackNotifier(options: SlackOptions, http: HttpDeps): Notifier {
  const url = new URL(options.webhookUrl);
  const secrets = urlSecrets(options.webhookUrl);
  return {
    name: options.name,
    async send({ notification }: Delivery, signal?: AbortSignal) {
      const answer = await postJson(http, 'Slack', url, slackMessage(notification, options.templates), options.timeoutMs, signal, true);
      if (!succeeded(answer)) throw answerError('Slack', answer, http.clock.now(), { said: answer.body, secrets });
    },
  };
}
