import type { ReceiverDeps, ReceiverPlugin } from '../plugin';
import type { BotDeps } from './bot-context';
import { TELEGRAM_DEFAULTS, telegramSchema, type TelegramConfig } from './schema';
import { telegramNotifier } from './telegram';

export type { BotContext, BotDeps, BotNotices, BotStatus, ClosedNetwork } from './bot-context';

/**
 * `telegram`: a message per group through a bot (sendMessage, HTML), and with `commands: true`
 * the bot answers /status, /closed, /notices, /silence... in its chat. The daemon passes a BotContext
 * beside the edges (`bot`, see notify/orchestrator.ts); without it (test-notify) the bot only sends.
 */
export const telegram = {
  kind: 'telegram',
  schema: () => telegramSchema,
  defaults: TELEGRAM_DEFAULTS,
  redact: { bot_token: 'secret', chat_id: 'keep', message_thread_id: 'keep', api_url: 'url', commands: 'keep', allowed_users: 'keep', template: 'keep', timeout: 'keep' },
  create: (name, c, deps: ReceiverDeps & BotDeps) => telegramNotifier({ ...c, name }, deps),
} satisfies ReceiverPlugin<TelegramConfig>;
