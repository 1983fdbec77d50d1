import { z } from 'zod';
import { httpUrl, withDefault } from '../../lib/schema-types';
import { DEFAULT_RECEIVER_TIMEOUT_MS, receiverTimeout } from '../kit/receiver-schema';
import { htmlProblem } from './html';

/** The public Bot API; a self-hosted Bot API server or a gateway is set with `api_url`. */
export const DEFAULT_TELEGRAM_API = 'https://api.telegram.org';

export const TELEGRAM_DEFAULTS = { api_url: DEFAULT_TELEGRAM_API, commands: false, timeout: DEFAULT_RECEIVER_TIMEOUT_MS };

/** What @BotFather gives: the bot's id, a colon, and a secret. */
const BOT_TOKEN = /^\d+:[A-Za-z0-9_-]{20,}$/;

/**
 * `chat_id`: a chat's number (negative for groups and channels: `-1001234567890`), written as a
 * number or a string, or a public channel's `@username`. Kept as a string.
 */
const chatId = z.union([z.string(), z.number().int()]).transform((v, ctx) => {
  const text = String(v).trim();
  if (/^-?\d{1,16}$/.test(text) || /^@[A-Za-z][A-Za-z0-9_]{3,}$/.test(text)) return text;
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'use the chat\'s number (such as "-1001234567890") or a public channel\'s @username' });
  return z.NEVER;
});

/** A Telegram user's id (a number, or the number as a string), as getUpdates' `from.id` gives it. */
const userId = z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,15}$/, 'a Telegram user id is a number, such as 123456789')]).transform(Number);

/** The `telegram:` block of a receiver (DESIGN.md section 4: the key names are a contract). */
export const telegramSchema = z
  .object({
    // The message never quotes the value: it is a secret.
    bot_token: z.string().refine((v) => BOT_TOKEN.test(v), { message: 'not a bot token (use the one @BotFather gave, 123456789:AA...)' }),
    chat_id: chatId,
    /** A forum supergroup's topic. */
    message_thread_id: z.number().int().positive().optional(),
    api_url: withDefault(httpUrl, DEFAULT_TELEGRAM_API),
    /** Whether the bot answers commands (/status, /silence...) in its chat: it then long-polls getUpdates. */
    commands: z.boolean().default(false),
    /** Who may change something from the chat (/silence, /unsilence, the silence buttons): everyone in the chat when absent. */
    allowed_users: z.array(userId).min(1, 'list at least one user id, or leave allowed_users out (then everyone in the chat may)').optional(),
    /** A message of your own: Telegram HTML over the notification's fields (values escaped); see message.ts. */
    template: z
      .string()
      .min(1)
      .superRefine((t, ctx) => {
        const problem = htmlProblem(t);
        if (problem !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `Telegram would refuse this HTML: ${problem}` });
      })
      .optional(),
    timeout: receiverTimeout,
  })
  .strict();

export type TelegramConfig = z.output<typeof telegramSchema>;
