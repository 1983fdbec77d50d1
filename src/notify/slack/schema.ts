import { z } from 'zod';
import { DEFAULT_RECEIVER_TIMEOUT_MS, messageTemplate, receiverTimeout, secretHttpUrl } from '../receiver-schema';

export const SLACK_DEFAULTS = { timeout: DEFAULT_RECEIVER_TIMEOUT_MS };

/** The `slack:` block of a receiver (DESIGN.md section 4: `webhook_url` is a contract). */
export const slackSchema = z
  .object({
    /** The incoming webhook's URL, as Slack gives it (`https://hooks.slack.com/services/T.../B.../...`): a secret. */
    webhook_url: secretHttpUrl,
    timeout: receiverTimeout,
    /** The message's text and header instead of the headline (notify/chat-text.ts's group fields). */
    text_template: messageTemplate,
    /** Each alert's section instead of the default (the alert's fields, mrkdwn-escaped). */
    alert_template: messageTemplate,
  })
  .strict();

export type SlackConfig = z.output<typeof slackSchema>;
