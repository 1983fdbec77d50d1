/**
 * A chat service reached through a webhook URL that is itself the secret (Discord's Execute
 * Webhook, Slack's incoming webhooks): the same block, the same send, a plugin per service. A
 * service says how it words a group (`message`) and how it words a failure (`failure`); the rest
 * (posting, the secret URL kept out of every message, the plugin) is here.
 */
import { z } from 'zod';
import { urlSecrets } from './http-errors';
import { postJson, succeeded, type HttpDeps, type PostAnswer } from './http-post';
import type { Delivery, Notification, Notifier, NotifyError } from '../notifier';
import type { ReceiverPlugin } from '../plugin';
import { DEFAULT_RECEIVER_TIMEOUT_MS, messageTemplate, receiverTimeout, secretHttpUrl } from './receiver-schema';
import { wallNow } from '../../lib/clock';

/** The block of a webhook chat receiver (DESIGN.md section 4: `webhook_url` is a contract). */
export const chatWebhookSchema = z
  .object({
    /** The URL the service gives for the channel: a secret (its path holds the token). */
    webhook_url: secretHttpUrl,
    timeout: receiverTimeout,
    /** The message's text instead of the headline (notify/kit/chat-text.ts's group fields, escaped for the service). */
    text_template: messageTemplate,
    /** Each alert's text instead of the default (the alert's fields, escaped for the service). */
    alert_template: messageTemplate,
  })
  .strict();

export type ChatWebhookConfig = z.output<typeof chatWebhookSchema>;

export interface ChatTemplates {
  text?: string | undefined;
  alert?: string | undefined;
}

/** What differs from one webhook chat service to another. */
export interface ChatService {
  /** The service's name in messages (`Discord answered HTTP 404: ...`). */
  who: string;
  /** Where to post, from the configured URL (a query parameter the service wants, say). */
  url(webhookUrl: string): URL;
  /** The group as the service's JSON message. */
  message(n: Notification, templates: ChatTemplates): unknown;
  /** A failed answer as the service words it; `secrets` never reach the message. */
  failure(answer: PostAnswer, now: number, secrets: readonly string[]): NotifyError;
}

export interface ChatWebhookOptions {
  name: string;
  webhookUrl: string;
  timeoutMs: number;
  templates?: ChatTemplates;
}

/** Each group as one message, posted to the webhook; a failure as the service words it. */
export function chatWebhookNotifier(service: ChatService, options: ChatWebhookOptions, http: HttpDeps): Notifier {
  const url = service.url(options.webhookUrl);
  const secrets = urlSecrets(options.webhookUrl);
  return {
    name: options.name,
    async send({ notification }: Delivery, signal?: AbortSignal) {
      const answer = await postJson(url, service.message(notification, options.templates ?? {}), { http, who: service.who, timeoutMs: options.timeoutMs, signal, secretUrl: true });
      if (!succeeded(answer)) throw service.failure(answer, wallNow(http.clock), secrets);
    },
  };
}

/** The receiver kind of a webhook chat service: its block is chatWebhookSchema, its URL a secret. */
export function chatWebhookPlugin(kind: string, service: ChatService) {
  return {
    kind,
    schema: () => chatWebhookSchema,
    defaults: { timeout: DEFAULT_RECEIVER_TIMEOUT_MS },
    redact: { webhook_url: 'secret', timeout: 'keep', text_template: 'keep', alert_template: 'keep' },
    create: (name, c, deps) =>
      chatWebhookNotifier(service, { name, webhookUrl: c.webhook_url, timeoutMs: c.timeout, templates: { text: c.text_template, alert: c.alert_template } }, deps),
  } satisfies ReceiverPlugin<ChatWebhookConfig>;
}
