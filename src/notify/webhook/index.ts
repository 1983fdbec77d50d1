import type { ReceiverPlugin } from '../plugin';
import { WEBHOOK_DEFAULTS, webhookSchema, type WebhookConfig } from './schema';
import { webhookNotifier } from './webhook';

/** `webhook`: POSTs the Alertmanager version 4 body (or a body of your own), signed when a secret is set. */
export const webhook = {
  kind: 'webhook',
  schema: () => webhookSchema,
  defaults: WEBHOOK_DEFAULTS,
  redact: { url: 'url', timeout: 'keep', secret: 'secret', headers: 'header-values', max_alerts: 'keep', max_body_bytes: 'keep', body_template: 'keep', content_type: 'keep' },
  create: (name, c, deps) =>
    webhookNotifier(
      { name, url: c.url, timeoutMs: c.timeout, secret: c.secret, headers: c.headers, maxAlerts: c.max_alerts, maxBodyBytes: c.max_body_bytes, bodyTemplate: c.body_template, contentType: c.content_type },
      deps,
    ),
} satisfies ReceiverPlugin<WebhookConfig>;
