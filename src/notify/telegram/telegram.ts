import type { HttpDeps } from '../kit/http-post';
import { NotifyError, type Delivery, type Notifier, type NotifiedAlert } from '../notifier';
import type { ReceiverDeps } from '../plugin';
import { SentParts } from '../kit/sent-parts';
import { callBot, sendFailure, type BotTarget } from './bot-api';
import type { BotDeps } from './bot-context';
import { buttonFile, buttonKey, sharedLabels, silenceKeyboard } from './buttons';
import { answerPress } from './callbacks';
import { answerUpdate } from './commands';
import { TemplateTooLong, telegramMessages } from './message';
import { offsetFile } from './offset-file';
import { UpdatePoller, type Backoff } from './poller';
import type { TgMessage } from './updates';
import type { TelegramConfig } from './schema';

/** A chat id as the Bot API types it: Integer, or a String for @username. */
function chatParam(chatId: string): number | string {
  return /^-?\d+$/.test(chatId) ? Number(chatId) : chatId;
}

export interface TelegramOptions extends TelegramConfig {
  name: string;
  /** Tests shorten the poller's waits. */
  longPollSeconds?: number;
  backoff?: Backoff;
}

/**
 * The `telegram` receiver: sendMessage (HTML) per group, split or cut at Telegram's limit;
 * with `commands: true` and the daemon's BotContext, a poller that answers commands in the chat
 * and presses of the silence buttons every firing message then carries (buttons.ts), stopped at
 * close (a reload or the daemon's stop).
 */
export function telegramNotifier(options: TelegramOptions, deps: ReceiverDeps & BotDeps): Notifier {
  const bot: BotTarget = { apiUrl: options.api_url, token: options.bot_token };
  const http: HttpDeps = deps;
  /** Parts of multi-message notifications already delivered: a retry sends only the rest. */
  const sent = new SentParts();
  const logger = deps.logger.child({ component: 'telegram' });
  const context = deps.bot;
  /** What the silence buttons' keys stand for: only where presses are answered (the daemon, with commands). */
  const buttons = options.commands && context !== undefined ? buttonFile(context.stateDir, options.bot_token) : undefined;
  const allowedUsers = options.allowed_users;
  const poller =
    buttons !== undefined && context !== undefined
      ? new UpdatePoller({
          receiver: options.name,
          bot,
          http,
          logger,
          offsets: offsetFile(context.stateDir, options.bot_token),
          timeoutMs: options.timeout,
          longPollSeconds: options.longPollSeconds,
          backoff: options.backoff,
          onUpdate: (update, me, signal) =>
            update.callback_query !== undefined
              ? answerPress(update.callback_query, { receiver: options.name, chatId: options.chat_id, context, logger, allowedUsers, buttons, call: (method, params, s) => callBot(http, bot, method, params, options.timeout, s) }, signal)
              : answerUpdate(update, me, { receiver: options.name, chatId: options.chat_id, allowedUsers, context, logger, reply: (to, text, s) => reply(to, text, s) }, signal),
        })
      : undefined;

  /** A firing message's buttons: over the labels its firing alerts share, none when they share none. */
  function keyboardFor(listed: readonly NotifiedAlert[]): object | undefined {
    const firing = listed.filter((a) => a.status === 'firing');
    const labels = sharedLabels(firing);
    // Presses come to the receiver that polls the bot: another receiver of the same bot only sends, without buttons.
    if (buttons === undefined || poller?.polling !== true || Object.keys(labels).length === 0) return undefined;
    const key = buttonKey(labels);
    try {
      buttons.remember(key, labels, deps.clock.now());
    } catch (err) {
      // The buttons still work until a restart.
      logger.error({ receiver: options.name, error: String(err) }, 'cannot save what a Telegram silence button stands for');
    }
    return silenceKeyboard(key);
  }

  async function reply(to: TgMessage, text: string, signal: AbortSignal): Promise<void> {
    const params = {
      chat_id: to.chat.id,
      text,
      ...(to.message_thread_id !== undefined && { message_thread_id: to.message_thread_id }),
      reply_parameters: { message_id: to.message_id, allow_sending_without_reply: true },
      link_preview_options: { is_disabled: true },
    };
    const answer = await callBot(http, bot, 'sendMessage', params, options.timeout, signal);
    if (!answer.ok) logger.warn({ receiver: options.name, error: sendFailure('sendMessage', answer, bot.token).message }, 'Telegram reply to a command failed');
  }

  poller?.start();
  return {
    name: options.name,
    async send({ notification, idempotencyKey }: Delivery, signal?: AbortSignal) {
      let parts: string[];
      let listed: NotifiedAlert[][];
      try {
        ({ parts, listed } = telegramMessages(notification, options.template));
      } catch (err) {
        if (err instanceof TemplateTooLong) throw new NotifyError(`telegram template: ${err.message}`, 'client_error', false);
        throw err;
      }
      await sent.sendEach(idempotencyKey, parts, async (text, i) => {
        const params = {
          chat_id: chatParam(options.chat_id),
          ...(options.message_thread_id !== undefined && { message_thread_id: options.message_thread_id }),
          text,
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
          ...(notification.status === 'firing' && { reply_markup: keyboardFor(listed[i] ?? []) }),
        };
        const answer = await callBot(http, bot, 'sendMessage', params, options.timeout, signal);
        if (!answer.ok) throw sendFailure('sendMessage', answer, bot.token);
      });
    },
    async close() {
      await poller?.stop();
    },
  };
}


