/**
 * A press of a one-tap silence button (buttons.ts), from getUpdates' `callback_query`. Telegram
 * shows a progress bar until the bot answers the query (answerCallbackQuery), so every press is
 * answered: a refusal (allowed_users), an expired button, an alert already silenced, or the
 * silence made. The silence is the API's own (BotContext.silences.create, as POST
 * /api/v1/silences), over the labels the message's alerts share; then the message is edited to
 * say who silenced it and until when, and loses its buttons.
 *
 * The answer goes first: Telegram refuses to answer a press it has given up on (400, "query is
 * too old"), which is how a press made while spotwatch was down is told from a fresh one; such a
 * press is counted (`stale`) and changes nothing, as a stale command does not.
 */
import type { Logger } from '../../lib/logger';
import { span } from '../../lib/duration';
import type { BotAnswer } from './bot-api';
import type { BotContext } from './bot-context';
import { readCallbackData, type ButtonStore } from './buttons';
import { sameChat } from './commands';
import { plainUpstream } from './html';
import { TELEGRAM_TEXT_LIMIT } from './message';
import type { TgCallbackQuery, TgMessage, TgUser } from './updates';
import { createdBy, describeMatcher, iso, mayChange, refusal } from './silence-command';

/** A silence over the same labels ending this much before a press's would is the same silence: two quick presses (or two people pressing) make one. */
const SAME_PRESS_MS = 60_000;

/** How much of a silence's id the edited message shows (as /silences does). */
const SHORT_ID = 8;

export interface CallbackDeps {
  receiver: string;
  /** The configured chat_id: a press elsewhere (the message forwarded to another chat) changes nothing. */
  chatId: string;
  context: BotContext;
  logger: Logger;
  allowedUsers: readonly number[] | undefined;
  buttons: ButtonStore;
  /** A Bot API call; a call that got no answer throws. */
  call<T>(method: string, params: object, signal: AbortSignal): Promise<BotAnswer<T>>;
}

/** Who pressed, as the edited message names them. */
function presser(from: TgUser): string {
  return from.username !== undefined ? `@${from.username}` : plainUpstream(from.first_name ?? `user ${from.id}`, 64);
}

/** answerCallbackQuery; 'too_old' when Telegram no longer takes an answer to this press. */
async function answerQuery(q: TgCallbackQuery, deps: CallbackDeps, signal: AbortSignal, text?: string, alert = false): Promise<'ok' | 'too_old' | 'failed'> {
  const params = { callback_query_id: q.id, ...(text !== undefined && { text }), ...(alert && { show_alert: true }) };
  try {
    const answer = await deps.call('answerCallbackQuery', params, signal);
    if (answer.ok) return 'ok';
    if (answer.status === 400) return 'too_old';
    deps.logger.warn({ receiver: deps.receiver, error: `${answer.status}: ${answer.description}` }, 'Telegram answerCallbackQuery failed');
  } catch (err) {
    if (signal.aborted) throw err;
    deps.logger.warn({ receiver: deps.receiver, error: err instanceof Error ? err.message : String(err) }, 'Telegram answerCallbackQuery got no answer');
  }
  return 'failed';
}

function logFailed(deps: CallbackDeps, method: string, answer: BotAnswer<unknown>): void {
  if (!answer.ok) deps.logger.warn({ receiver: deps.receiver, error: `${answer.status}: ${answer.description}` }, `Telegram ${method} after a button press failed`);
}

/** `line` as a reply to the pressed message. */
async function reply(message: TgMessage, line: string, deps: CallbackDeps, signal: AbortSignal): Promise<void> {
  const params = { chat_id: message.chat.id, text: line, reply_parameters: { message_id: message.message_id, allow_sending_without_reply: true }, link_preview_options: { is_disabled: true } };
  logFailed(deps, 'sendMessage', await deps.call('sendMessage', params, signal));
}

/** `line` appended to the pressed message (its own entities kept, its buttons gone); when it is too long or too old to edit, its buttons go and `line` is a reply. */
async function markSilenced(message: TgMessage, line: string, deps: CallbackDeps, signal: AbortSignal): Promise<void> {
  const where = { chat_id: message.chat.id, message_id: message.message_id };
  const noButtons = { inline_keyboard: [] };
  if (message.date !== 0 && typeof message.text === 'string' && message.text.length + 2 + line.length <= TELEGRAM_TEXT_LIMIT) {
    const params = { ...where, text: `${message.text}\n\n${line}`, ...(message.entities !== undefined && { entities: message.entities }), link_preview_options: { is_disabled: true }, reply_markup: noButtons };
    const edited = await deps.call('editMessageText', params, signal);
    if (edited.ok) return;
    logFailed(deps, 'editMessageText', edited);
  }
  logFailed(deps, 'editMessageReplyMarkup', await deps.call('editMessageReplyMarkup', { ...where, reply_markup: noButtons }, signal));
  await reply(message, line, deps, signal);
}

/** One press: answered always; a silence made only for an allowed, fresh press of a button whose labels are known. */
export async function answerPress(q: TgCallbackQuery, deps: CallbackDeps, signal: AbortSignal): Promise<void> {
  const { context, logger, receiver } = deps;
  const press = readCallbackData(q.data);
  if (press === undefined) {
    // Not a button of ours (an older version's, or another program's): the progress bar still ends.
    await answerQuery(q, deps, signal);
    return;
  }
  // Our buttons are only on messages in the configured chat (never inline messages, which come without `message`).
  if (q.message === undefined || !sameChat(q.message.chat, deps.chatId)) {
    context.ignored(receiver, 'other_chat');
    logger.info({ receiver, from: q.from.id, chat: q.message?.chat.id }, 'Telegram button pressed in another chat; ignored');
    await answerQuery(q, deps, signal, 'These buttons only work in the chat spotwatch sent them to.', true);
    return;
  }
  if (!mayChange({ from: q.from }, deps.allowedUsers)) {
    context.ignored(receiver, 'not_allowed');
    logger.info({ receiver, from: q.from.id, button: press.span.text }, 'Telegram button refused: not in allowed_users');
    await answerQuery(q, deps, signal, refusal('silence alerts', { from: q.from }), true);
    return;
  }
  const labels = deps.buttons.recall(press.key);
  if (labels === undefined || Object.keys(labels).length === 0) {
    await answerQuery(q, deps, signal, 'This button has expired: /silence still silences these alerts.', true);
    return;
  }
  const now = context.now();
  const endsAt = now + press.span.ms;
  const wanted = Object.entries(labels).map(([k, v]) => `${k}=${v}`).sort().join('\n');
  const already = context.silences
    .list()
    .find((s) => s.startsAt <= now && s.endsAt >= endsAt - SAME_PRESS_MS && s.matchers.map(describeMatcher).sort().join('\n') === wanted);
  if (already !== undefined) {
    await answerQuery(q, deps, signal, `Already silenced until ${iso(already.endsAt)}${already.createdBy ? ` by ${plainUpstream(already.createdBy.replace(/^telegram:/, ''), 64)}` : ''}.`);
    return;
  }
  // Said before the silence is made (see above): the edited message says what came of it.
  const told = await answerQuery(q, deps, signal, `Silencing for ${press.span.span}, until ${iso(endsAt)}…`);
  if (told === 'too_old') {
    context.ignored(receiver, 'stale');
    logger.info({ receiver, from: q.from.id, button: press.span.text }, 'Telegram button press too old to act on (pressed while spotwatch was down?); ignored');
    return;
  }
  const made = context.silences.create({
    matchers: Object.entries(labels).map(([name, value]) => ({ name, value, isRegex: false, isEqual: true })),
    endsAt,
    comment: `${press.span.text} (a Telegram button)`,
    createdBy: createdBy({ from: q.from }),
  });
  if (q.message === undefined) return;
  if (typeof made === 'string') {
    logger.warn({ receiver, from: q.from.id, error: made }, 'silence from a Telegram button not made');
    // The buttons stay: a press later, when the store can be written, silences.
    await reply(q.message, `Not silenced: ${plainUpstream(made, 300)}`, deps, signal);
    return;
  }
  logger.info({ receiver, from: q.from.id, silence: made.id, endsAt: new Date(made.endsAt).toISOString() }, 'silenced from a Telegram button');
  const id = made.id.slice(0, SHORT_ID);
  await markSilenced(q.message, `🔕 Silenced by ${presser(q.from)} until ${iso(made.endsAt)} (${span(made.endsAt - now)}). /unsilence ${id} ends it.`, deps, signal);
}
