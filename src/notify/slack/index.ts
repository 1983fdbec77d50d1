import type { ReceiverPlugin } from '../plugin';
import { SLACK_DEFAULTS, slackSchema, type SlackConfig } from './schema';
import { slackNotifier } from './slack';

/** `slack`: each group as one message through an incoming webhook, upstream text mrkdwn-escaped; the webhook URL is a secret. */
export const slack = {
  kind: 'slack',
  schema: () => slackSchema,
  defaults: SLACK_DEFAULTS,
  redact: { webhook_url: 'secret', timeout: 'keep', text_template: 'keep', alert_template: 'keep' },
  create: (name, c, deps) =>
    slackNotifier({ name, webhookUrl: c.webhook_url, timeoutMs: c.timeout, templates: { text: c.text_template, alert: c.alert_template } }, deps),
} satisfies ReceiverPlugin<SlackConfig>;
