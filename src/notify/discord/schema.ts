import { z } from 'zod';
import { DEFAULT_RECEIVER_TIMEOUT_MS, messageTemplate, receiverTimeout, secretHttpUrl } from '../receiver-schema';

export const DISCORD_DEFAULTS = { timeout: DEFAULT_RECEIVER_TIMEOUT_MS };

/** The `discord:` block of a receiver (DESIGN.md section 4: `webhook_url` is a contract). */
export const discordSchema = z
  .object({
    /** The channel's webhook URL, as Discord gives it (`https://discord.com/api/webhooks/ID/TOKEN`): a secret. */
    webhook_url: secretHttpUrl,
    timeout: receiverTimeout,
    /** The message's text instead of the headline (notify/chat-text.ts's group fields, Discord-escaped). */
    text_template: messageTemplate,
    /** Each alert's embed text instead of its description (the alert's fields, Discord-escaped). */
    alert_template: messageTemplate,
  })
  .strict();

export type DiscordConfig = z.output<typeof discordSchema>;
