import type { ReceiverPlugin } from '../plugin';
import { discordNotifier } from './discord';
import { DISCORD_DEFAULTS, discordSchema, type DiscordConfig } from './schema';

/** `discord`: each group as one message through a channel's webhook, upstream text made inert; the webhook URL is a secret. */
export const discord = {
  kind: 'discord',
  schema: () => discordSchema,
  defaults: DISCORD_DEFAULTS,
  redact: { webhook_url: 'secret', timeout: 'keep', text_template: 'keep', alert_template: 'keep' },
  create: (name, c, deps) =>
    discordNotifier({ name, webhookUrl: c.webhook_url, timeoutMs: c.timeout, templates: { text: c.text_template, alert: c.alert_template } }, deps),
} satisfies ReceiverPlugin<DiscordConfig>;
