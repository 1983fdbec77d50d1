import { chatWebhookSchema, type ChatTemplates, type ChatWebhookConfig } from '../kit/chat-webhook';
import { answerError, answerJson, urlSecrets } from '../kit/http-errors';
import { postJson, succeeded, type HttpDeps, type PostAnswer } from '../kit/http-post';
import type { Delivery, Notifier, NotifyError } from '../notifier';
import type { ReceiverPlugin } from '../plugin';
import { DEFAULT_RECEIVER_TIMEOUT_MS } from '../kit/receiver-schema';
import { SentParts } from '../kit/sent-parts';
import { teamsMessages } from './card';
import { wallNow } from '../../lib/clock';

export interface TeamsOptions {
  name: string;
  webhookUrl: string;
  timeoutMs: number;
  templates?: ChatTemplates;
}

/**
 * Microsoft Teams through a Workflows webhook: each group as one Adaptive Card message, or
 * several in order when it is larger than Teams takes (card.ts). A retry sends only the parts not
 * yet accepted. The URL is a secret (its `sig` query signs it): it never reaches a message. A
 * 429's `Retry-After` is honoured, other 4xx are permanent with the service's own words, 5xx
 * retried.
 */
export function teamsNotifier(options: TeamsOptions, http: HttpDeps): Notifier {
  const url = new URL(options.webhookUrl);
  const secrets = teamsSecrets(options.webhookUrl);
  const sent = new SentParts();
  return {
    name: options.name,
    async send({ notification, idempotencyKey }: Delivery, signal?: AbortSignal) {
      const parts = teamsMessages(notification, options.templates ?? {});
      await sent.sendEach(idempotencyKey, parts, async (part) => {
        const answer = await postJson(url, part, { http, who: 'Teams', timeoutMs: options.timeoutMs, signal, secretUrl: true });
        if (!succeeded(answer)) throw teamsError(answer, wallNow(http.clock), secrets);
      });
    },
  };
}

/** What of a Workflows URL is secret: what any chat webhook's is, and its signature (`sig`) as it is written and decoded. */
export function teamsSecrets(webhookUrl: string): string[] {
  const secrets = urlSecrets(webhookUrl);
  const raw = /[?&]sig=([^&#]*)/.exec(webhookUrl)?.[1];
  const sig = new URL(webhookUrl).searchParams.get('sig');
  return [...secrets, ...[raw, sig].filter((s): s is string => s !== undefined && s !== null && s.length >= 8), new URL(webhookUrl).search].filter((s) => s.length > 1);
}

/** A failed answer as Workflows words it: `{"error": {"code", "message"}}` (`TriggerInputSchemaMismatch: ...`), or its raw body. */
export function teamsError(answer: PostAnswer, now: number, secrets: readonly string[] = []): NotifyError {
  const json = answerJson(answer.body);
  const error = json?.error;
  let said = answer.body;
  if (typeof error === 'object' && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    said = [typeof code === 'string' ? code : undefined, typeof message === 'string' ? message : undefined].filter(Boolean).join(': ');
  }
  return answerError('Teams', answer, now, { said, secrets });
}

/** `teams: { webhook_url }`: the block of the other webhook chat receivers, its URL a secret. */
export const teamsPlugin = {
  kind: 'teams',
  schema: () => chatWebhookSchema,
  defaults: { timeout: DEFAULT_RECEIVER_TIMEOUT_MS },
  redact: { webhook_url: 'secret', timeout: 'keep', text_template: 'keep', alert_template: 'keep' },
  create: (name, c, deps) =>
    teamsNotifier({ name, webhookUrl: c.webhook_url, timeoutMs: c.timeout, templates: { text: c.text_template, alert: c.alert_template } }, deps),
} satisfies ReceiverPlugin<ChatWebhookConfig>;
