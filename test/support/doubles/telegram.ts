/**
 * A loopback double of the Telegram Bot API, written from its public documentation
 * (core.telegram.org/bots/api: "Making requests", sendMessage, getUpdates, getMe,
 * ResponseParameters, "Formatting options", MessageEntity, InlineKeyboardMarkup,
 * InlineKeyboardButton, CallbackQuery, MaybeInaccessibleMessage / InaccessibleMessage,
 * answerCallbackQuery, editMessageText, editMessageReplyMarkup), not from the code under test:
 * - `https://api.telegram.org/bot<token>/METHOD`, GET or POST, parameters in the query string,
 *   as application/x-www-form-urlencoded or application/json; method names case-insensitive.
 * - Answers `{"ok":true,"result":...}` or `{"ok":false,"error_code":N,"description":"...",
 *   "parameters":{"retry_after":N}}` with the same HTTP status.
 * - sendMessage: `text` 1-4096 characters after entities parsing; parse_mode HTML (see
 *   telegram-html.ts); message_thread_id for a forum's topics; reply_parameters. It answers the
 *   Message: message_id, from (the bot), chat, date, text, entities (when any), reply_markup
 *   (when an inline keyboard was given).
 * - getUpdates: an update is confirmed (and forgotten) once getUpdates is called with an offset
 *   higher than its update_id; `timeout` seconds of long polling; `allowed_updates` kept until
 *   given again (unset or empty: every kind, callback_query included); a second getUpdates ends
 *   the first with 409 Conflict.
 * Inline keyboards, callback queries and edits; error descriptions as the open-source Bot API
 * server (tdlib/telegram-bot-api, Client.cpp) and bots' issue threads show them:
 * - reply_markup is an object or a JSON string; `inline_keyboard` "Array of Array of
 *   InlineKeyboardButton"; a button has `text` and "exactly one of the optional fields"
 *   (url, callback_data, ...: the real server takes the first it knows, this double refuses two);
 *   callback_data "1-64 bytes" (longer: `BUTTON_DATA_INVALID`, from Telegram's servers). Only
 *   an inline keyboard is kept on a message; it is echoed as `{text, <the action field>}`.
 * - entities (no parse_mode; with a parse_mode they are ignored): kept as given; an offset or
 *   length out of the text is refused ("Entity beginning at UTF-16 offset ..." in TDLib).
 * - A callback query's `message` is the message as it is now, or an InaccessibleMessage
 *   `{message_id, chat, date: 0}`; answering twice, late or with an unknown id is
 *   `query is too old and response timeout expired or query ID is invalid`; `text` 0-200
 *   characters (longer: `MESSAGE_TOO_LONG`, as bots report it).
 * - editMessageText without reply_markup leaves the message WITHOUT its inline keyboard: the
 *   docs say no more than "reply_markup: A JSON-serialized object for an inline keyboard", but
 *   that is what Telegram does (TelegramBots/Telegram.Bot#402, tried by hand; go-telegram-bot-api
 *   #158; teloxide_tests#31 "not documented properly ... the go-to way to remove the inline
 *   keyboard"), and the Bot API server passes an absent reply_markup on as none.
 *   editMessageReplyMarkup without one removes the keyboard likewise.
 *   Unchanged text, entities and keyboard: MESSAGE_NOT_MODIFIED's "message is not modified: ...";
 *   an edited message carries `edit_date`. Only the bot's messages can be edited ("message can't
 *   be edited"); an unknown one is "message to edit not found". The bot sends no inline messages,
 *   so an inline_message_id is refused ("invalid inline message identifier specified").
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenLoopback } from '../loopback';
import { type MessageEntity, ParseError, parseTelegramHtmlEntities } from './telegram-html';

export type { MessageEntity } from './telegram-html';

export interface TgRequest {
  method: string;
  params: Record<string, unknown>;
  /** The body exactly as sent. */
  raw: string;
}

export interface Sent {
  chatId: string;
  /** The text as Telegram shows it (after parsing). */
  text: string;
  params: Record<string, unknown>;
  messageId: number;
  /** Its entities: from parse_mode HTML, or as given in `entities`. */
  entities: MessageEntity[];
  /** Its inline keyboard, as Telegram echoes it. */
  replyMarkup: InlineKeyboardMarkup | undefined;
}

export type InlineKeyboardButton = { text: string } & Record<string, unknown>;

export interface InlineKeyboardMarkup {
  inline_keyboard: InlineKeyboardButton[][];
}

/** A message as Telegram shows it now (Message). */
export interface TgMessage {
  message_id: number;
  from: Record<string, unknown>;
  chat: { id: number; type: string; username?: string };
  date: number;
  edit_date?: number;
  message_thread_id?: number;
  is_topic_message?: boolean;
  text: string;
  entities?: MessageEntity[];
  reply_markup?: InlineKeyboardMarkup;
}

export interface Answer {
  queryId: string;
  text?: string;
  showAlert?: boolean;
  url?: string;
  cacheTime?: number;
}

export interface Edit {
  chatId: string;
  messageId: number;
  method: 'editMessageText' | 'editMessageReplyMarkup';
  params: Record<string, unknown>;
}

export interface Fault {
  status: number;
  description: string;
  retryAfter?: number;
}

interface Chat {
  id: number;
  type: string;
  username?: string;
  blocked?: boolean;
  threads: Set<number>;
  messages: Set<number>;
  /** The messages the double knows the content of (the bot's, and those of message()). */
  stored: Map<number, TgMessage>;
  nextMessageId: number;
}

/** A 400 the Bot API answers, thrown inside a method. */
class BadRequest extends Error {}

/** InlineKeyboardButton's optional fields, "exactly one" of which a button uses. */
const ACTIONS = ['url', 'callback_data', 'web_app', 'login_url', 'switch_inline_query', 'switch_inline_query_current_chat', 'switch_inline_query_chosen_chat', 'copy_text', 'callback_game', 'pay'];
const NOT_MODIFIED = 'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';
const QUERY_INVALID = 'Bad Request: query is too old and response timeout expired or query ID is invalid';
export const ANSWER_TEXT_LIMIT = 200;

interface Waiter {
  res: ServerResponse;
  timer: NodeJS.Timeout;
  params: Record<string, unknown>;
}

export const TEXT_LIMIT = 4096;

export class TelegramDouble {
  url = '';
  readonly requests: TgRequest[] = [];
  readonly sent: Sent[] = [];
  readonly answers: Answer[] = [];
  readonly edits: Edit[] = [];
  readonly bot = { id: 0, is_bot: true, first_name: 'Spotwatch', username: 'SpotwatchBot' };
  private readonly faults = new Map<string, (Fault | 'pass')[]>();
  private readonly chats = new Map<string, Chat>();
  private updates: ({ update_id: number } & Record<string, unknown>)[] = [];
  private nextUpdateId = 7_000;
  private readonly queries = new Map<string, { answered: boolean; expired: boolean }>();
  private nextQueryId = 4_611_686_018_427_387;
  private allowed: string[] | undefined;
  private waiter: Waiter | undefined;
  private server: Server | undefined;

  constructor(readonly token: string) {
    this.bot.id = Number(token.split(':')[0]);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.onRequest(req, res));
    this.url = await listenLoopback(this.server);
    return this;
  }

  async stop(): Promise<void> {
    if (this.waiter !== undefined) clearTimeout(this.waiter.timer);
    this.waiter = undefined;
    await closeServer(this.server);
  }

  /** A chat the bot is in: a group (negative id), a private chat, a forum with topics. */
  chat(id: number, options: { type?: string; username?: string; blocked?: boolean; threads?: number[] } = {}): this {
    const { threads = [], ...rest } = options;
    this.chats.set(String(id), { id, type: options.type ?? (id < 0 ? 'supergroup' : 'private'), ...rest, threads: new Set(threads), messages: new Set(), stored: new Map(), nextMessageId: 1 });
    return this;
  }

  /** The next calls of `method` fail so, in order (`pass`: that call is answered as usual). */
  fail(method: string, ...faults: (Fault | 'pass')[]): this {
    this.faults.set(method.toLowerCase(), [...(this.faults.get(method.toLowerCase()) ?? []), ...faults]);
    return this;
  }

  /** Someone writes in a chat (which the bot need not know); returns the update's id. */
  message(chatId: number, text: string, options: { from?: Record<string, unknown>; threadId?: number; date?: number; edited?: boolean } = {}): number {
    const chat = this.chats.get(String(chatId));
    const messageId = chat === undefined ? 1 : chat.nextMessageId++;
    chat?.messages.add(messageId);
    const command = /^\/\S+/.exec(text)?.[0];
    const message = {
      message_id: messageId,
      from: options.from ?? { id: 42, is_bot: false, first_name: 'Ada', username: 'ada' },
      chat: { id: chatId, type: chat?.type ?? 'group', ...(chat?.username !== undefined && { username: chat.username }) },
      date: options.date ?? Math.floor(Date.now() / 1000),
      text,
      ...(options.threadId !== undefined && { message_thread_id: options.threadId, is_topic_message: true }),
      ...(command !== undefined && { entities: [{ type: 'bot_command', offset: 0, length: command.length }] }),
    };
    if (chat !== undefined && !options.edited) chat.stored.set(messageId, message);
    const id = this.nextUpdateId++;
    this.updates.push(options.edited ? { update_id: id, edited_message: message } : { update_id: id, message });
    this.deliver();
    return id;
  }

  /**
   * A user presses the inline button with this callback_data on that message (an Error when the
   * message has no such button now): queues a callback_query update; returns its ids.
   */
  press(chatId: number, messageId: number, data: string, options: { from?: Record<string, unknown>; inaccessible?: boolean } = {}): { updateId: number; queryId: string } {
    const chat = this.chats.get(String(chatId));
    const message = chat?.stored.get(messageId);
    const pressed = message?.reply_markup?.inline_keyboard.some((row) => row.some((b) => b.callback_data === data));
    if (chat === undefined || message === undefined || pressed !== true) throw new Error(`message ${messageId} in chat ${chatId} has no button with callback_data ${JSON.stringify(data)}`);
    const queryId = String(this.nextQueryId++);
    this.queries.set(queryId, { answered: false, expired: false });
    const shown = options.inaccessible === true ? { message_id: messageId, chat: chatOf(chat), date: 0 } : structuredClone(message);
    const updateId = this.nextUpdateId++;
    const callback_query = {
      id: queryId,
      from: options.from ?? { id: 42, is_bot: false, first_name: 'Ada', username: 'ada' },
      message: shown,
      chat_instance: String(-4_000_000_000_000 - chatId),
      data,
    };
    this.updates.push({ update_id: updateId, callback_query });
    this.deliver();
    return { updateId, queryId };
  }

  /** The query can no longer be answered (Telegram's time for an answer is up). */
  expire(queryId: string): this {
    const query = this.queries.get(queryId);
    if (query === undefined) throw new Error(`no callback query ${queryId}`);
    query.expired = true;
    return this;
  }

  /** The message as it is now (text, entities, inline keyboard), or undefined. */
  messageOf(chatId: number, messageId: number): TgMessage | undefined {
    const message = this.chats.get(String(chatId))?.stored.get(messageId);
    return message === undefined ? undefined : structuredClone(message);
  }

  /** Whether a getUpdates is waiting (long polling) now. */
  get polling(): boolean {
    return this.waiter !== undefined;
  }

  /** Updates not yet confirmed. */
  get pending(): number[] {
    return this.updates.map((u) => u.update_id);
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://double');
      const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
      if (m === null) return this.error(res, 404, 'Not Found');
      if (m[1] !== this.token) return this.error(res, 401, 'Unauthorized');
      let params: Record<string, unknown>;
      try {
        params = { ...Object.fromEntries(url.searchParams), ...bodyParams(req.headers['content-type'] ?? '', raw) };
      } catch {
        return this.error(res, 400, "Bad Request: can't parse JSON");
      }
      const method = (m[2] as string).toLowerCase();
      this.requests.push({ method, params, raw });
      const fault = this.faults.get(method)?.shift();
      if (fault !== undefined && fault !== 'pass') return this.error(res, fault.status, fault.description, fault.retryAfter);
      if (method === 'getme') return this.ok(res, this.bot);
      if (method === 'sendmessage') return this.sendMessage(res, params);
      if (method === 'getupdates') return this.getUpdates(res, params);
      try {
        if (method === 'answercallbackquery') return this.ok(res, this.answerCallbackQuery(params));
        if (method === 'editmessagetext') return this.ok(res, this.editMessage(params, 'editMessageText'));
        if (method === 'editmessagereplymarkup') return this.ok(res, this.editMessage(params, 'editMessageReplyMarkup'));
      } catch (err) {
        if (err instanceof BadRequest) return this.error(res, 400, err.message);
        throw err;
      }
      return this.error(res, 404, 'Not Found');
    });
  }

  private findChat(id: unknown): Chat | undefined {
    return this.chats.get(String(id)) ?? [...this.chats.values()].find((c) => c.username !== undefined && `@${c.username}` === id);
  }

  private sendMessage(res: ServerResponse, p: Record<string, unknown>): void {
    const chat = this.findChat(p.chat_id);
    if (chat === undefined) return this.error(res, 400, 'Bad Request: chat not found');
    if (chat.blocked) return this.error(res, 403, 'Forbidden: bot was blocked by the user');
    const thread = p.message_thread_id;
    if (thread !== undefined && !chat.threads.has(Number(thread))) return this.error(res, 400, 'Bad Request: message thread not found');
    if (typeof p.text !== 'string') return this.error(res, 400, 'Bad Request: message text is empty');
    let content: { text: string; entities: MessageEntity[] };
    let markup: InlineKeyboardMarkup | undefined;
    try {
      content = formatted(p);
      markup = inlineKeyboard(p.reply_markup);
    } catch (err) {
      if (err instanceof BadRequest) return this.error(res, 400, err.message);
      throw err;
    }
    const { text, entities } = content;
    if (text.trim() === '') return this.error(res, 400, 'Bad Request: message text is empty');
    if (text.length > TEXT_LIMIT) return this.error(res, 400, 'Bad Request: message is too long');
    const reply = p.reply_parameters as { message_id?: number; allow_sending_without_reply?: boolean } | undefined;
    if (reply !== undefined && !chat.messages.has(Number(reply.message_id)) && reply.allow_sending_without_reply !== true) {
      return this.error(res, 400, 'Bad Request: message to be replied not found');
    }
    const messageId = chat.nextMessageId++;
    chat.messages.add(messageId);
    const message: TgMessage = {
      message_id: messageId,
      from: { ...this.bot },
      chat: chatOf(chat),
      date: Math.floor(Date.now() / 1000),
      ...(thread !== undefined && { message_thread_id: Number(thread), is_topic_message: true }),
      text,
      ...(entities.length > 0 && { entities }),
      ...(markup !== undefined && { reply_markup: markup }),
    };
    chat.stored.set(messageId, message);
    this.sent.push({ chatId: String(chat.id), text, params: p, messageId, entities, replyMarkup: markup });
    this.ok(res, message);
  }

  private answerCallbackQuery(p: Record<string, unknown>): true {
    const queryId = String(p.callback_query_id ?? '');
    const query = this.queries.get(queryId);
    if (query === undefined || query.answered || query.expired) throw new BadRequest(QUERY_INVALID);
    const text = p.text === undefined ? undefined : String(p.text);
    if (text !== undefined && text.length > ANSWER_TEXT_LIMIT) throw new BadRequest('Bad Request: MESSAGE_TOO_LONG');
    query.answered = true;
    this.answers.push({
      queryId,
      ...(text !== undefined && { text }),
      ...(p.show_alert !== undefined && { showAlert: p.show_alert === true || p.show_alert === 'true' }),
      ...(p.url !== undefined && { url: String(p.url) }),
      ...(p.cache_time !== undefined && { cacheTime: Number(p.cache_time) }),
    });
    return true;
  }

  /** editMessageText or editMessageReplyMarkup: an absent reply_markup leaves no inline keyboard. */
  private editMessage(p: Record<string, unknown>, method: Edit['method']): TgMessage {
    const content = method === 'editMessageText' ? editedText(p) : undefined;
    const markup = inlineKeyboard(p.reply_markup);
    if ((p.chat_id === undefined || p.chat_id === '') && (p.message_id === undefined || p.message_id === '')) {
      if (p.inline_message_id === undefined || p.inline_message_id === '') throw new BadRequest('Bad Request: message identifier is not specified');
      throw new BadRequest('Bad Request: invalid inline message identifier specified');
    }
    const chat = this.findChat(p.chat_id);
    if (chat === undefined) throw new BadRequest('Bad Request: chat not found');
    const messageId = Number(p.message_id);
    const message = chat.stored.get(messageId);
    if (message === undefined) {
      throw new BadRequest(chat.messages.has(messageId) ? "Bad Request: message can't be edited" : 'Bad Request: message to edit not found');
    }
    if (message.from.id !== this.bot.id) throw new BadRequest("Bad Request: message can't be edited");
    const next: TgMessage = { ...message, ...(content !== undefined && { text: content.text, entities: content.entities }), reply_markup: markup };
    if (next.entities?.length === 0) delete next.entities;
    if (markup === undefined) delete next.reply_markup;
    const same = next.text === message.text && JSON.stringify(next.entities ?? []) === JSON.stringify(message.entities ?? []) && JSON.stringify(markup) === JSON.stringify(message.reply_markup);
    if (same) throw new BadRequest(NOT_MODIFIED);
    const { text, entities, reply_markup, ...head } = next;
    const edited: TgMessage = {
      ...head,
      edit_date: Math.floor(Date.now() / 1000),
      text,
      ...(entities !== undefined && { entities }),
      ...(reply_markup !== undefined && { reply_markup }),
    };
    chat.stored.set(messageId, edited);
    this.edits.push({ chatId: String(chat.id), messageId, method, params: p });
    return structuredClone(edited);
  }

  private getUpdates(res: ServerResponse, p: Record<string, unknown>): void {
    if (this.waiter !== undefined) {
      const earlier = this.waiter;
      this.waiter = undefined;
      clearTimeout(earlier.timer);
      this.error(earlier.res, 409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running');
    }
    const offset = p.offset === undefined ? undefined : Number(p.offset);
    if (offset !== undefined && offset < 0) this.updates = this.updates.slice(offset);
    else if (offset !== undefined) this.updates = this.updates.filter((u) => u.update_id >= offset);
    if (p.allowed_updates !== undefined) this.allowed = (typeof p.allowed_updates === 'string' ? JSON.parse(p.allowed_updates) : p.allowed_updates) as string[];
    const timeout = Number(p.timeout ?? 0);
    if (this.available(p).length > 0 || !(timeout > 0)) return this.ok(res, this.available(p));
    const waiter: Waiter = { res, params: p, timer: setTimeout(() => this.deliver(true), timeout * 1000) };
    this.waiter = waiter;
    res.on('close', () => {
      if (this.waiter === waiter) {
        clearTimeout(waiter.timer);
        this.waiter = undefined;
      }
    });
  }

  private available(p: Record<string, unknown>): unknown[] {
    const limit = Math.min(100, Math.max(1, Number(p.limit ?? 100)));
    const wanted = this.allowed === undefined || this.allowed.length === 0 ? undefined : new Set(this.allowed);
    return this.updates.filter((u) => wanted === undefined || Object.keys(u).some((k) => k !== 'update_id' && wanted.has(k))).slice(0, limit);
  }

  /** Answers a waiting getUpdates when there is something for it, or when its time is up. */
  private deliver(timedOut = false): void {
    const w = this.waiter;
    if (w === undefined) return;
    const ready = this.available(w.params);
    if (ready.length === 0 && !timedOut) return;
    clearTimeout(w.timer);
    this.waiter = undefined;
    this.ok(w.res, ready);
  }

  private ok(res: ServerResponse, result: unknown): void {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, result }));
  }

  private error(res: ServerResponse, status: number, description: string, retryAfter?: number): void {
    const body = { ok: false, error_code: status, description, ...(retryAfter !== undefined && { parameters: { retry_after: retryAfter } }) };
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
}

function bodyParams(contentType: string, raw: string): Record<string, unknown> {
  if (raw === '') return {};
  if (contentType.startsWith('application/json')) return JSON.parse(raw) as Record<string, unknown>;
  if (contentType.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  return {};
}

function chatOf(chat: Chat): TgMessage['chat'] {
  return { id: chat.id, type: chat.type, ...(chat.username !== undefined && { username: chat.username }) };
}

/** A parameter sent as JSON inside a form (or as JSON itself in a JSON body). */
function jsonParam(value: unknown, invalid: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new BadRequest(invalid);
  }
}

/** The text and its entities: parse_mode HTML, else `entities` as given (checked against the text). */
function formatted(p: Record<string, unknown>): { text: string; entities: MessageEntity[] } {
  const text = String(p.text);
  if (p.parse_mode !== undefined && p.parse_mode !== '') {
    if (String(p.parse_mode).toLowerCase() !== 'html') throw new BadRequest('Bad Request: unsupported parse_mode');
    try {
      return parseTelegramHtmlEntities(text);
    } catch (err) {
      if (err instanceof ParseError) throw new BadRequest(`Bad Request: can't parse entities: ${err.message}`);
      throw err;
    }
  }
  // The Bot API server ignores an `entities` that is no JSON at all.
  let given: unknown;
  try {
    given = typeof p.entities === 'string' ? JSON.parse(p.entities) : p.entities;
  } catch {
    given = undefined;
  }
  if (!Array.isArray(given)) return { text, entities: [] };
  const entities: MessageEntity[] = [];
  for (const e of given as unknown[]) {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) throw new BadRequest("Bad Request: can't parse MessageEntity: expected an Object");
    const entity = e as Record<string, unknown>;
    for (const field of ['offset', 'length']) {
      if (entity[field] === undefined) throw new BadRequest(`Bad Request: can't parse MessageEntity: Can't find field "${field}"`);
      if (!Number.isInteger(entity[field])) throw new BadRequest(`Bad Request: can't parse MessageEntity: Field "${field}" must be of type Number`);
    }
    if (typeof entity.type !== 'string') throw new BadRequest('Bad Request: can\'t parse MessageEntity: Field "type" must be of type String');
    if (!ENTITY_TYPES.has(entity.type)) throw new BadRequest("Bad Request: can't parse MessageEntity: Unsupported type specified");
    if (entity.type === 'text_link' && typeof entity.url !== 'string') throw new BadRequest('Bad Request: can\'t parse MessageEntity: Can\'t find field "url"');
    const offset = entity.offset as number;
    const length = entity.length as number;
    if (offset < 0) throw new BadRequest(`Bad Request: receive an entity with incorrect offset ${offset}`);
    if (length < 0) throw new BadRequest(`Bad Request: receive an entity with incorrect length ${length}`);
    if (length === 0) continue;
    if (offset > text.length) throw new BadRequest(`Bad Request: entity begins after the end of the text at UTF-16 offset ${offset}`);
    if (offset + length > text.length) throw new BadRequest(`Bad Request: entity beginning at UTF-16 offset ${offset} ends after the end of the text at UTF-16 offset ${offset + length}`);
    entities.push(entity as unknown as MessageEntity);
  }
  return { text, entities };
}

const ENTITY_TYPES = new Set(['mention', 'hashtag', 'cashtag', 'bot_command', 'url', 'email', 'phone_number', 'bold', 'italic', 'underline', 'strikethrough', 'spoiler', 'blockquote', 'expandable_blockquote', 'code', 'pre', 'text_link', 'text_mention', 'custom_emoji', 'bank_card_number', 'date_time']);

/** editMessageText's new text: 1-4096 characters after parsing. */
function editedText(p: Record<string, unknown>): { text: string; entities: MessageEntity[] } {
  if (p.text === undefined || p.text === '') throw new BadRequest('Bad Request: message text is empty');
  const content = formatted(p);
  if (content.text.trim() === '') throw new BadRequest('Bad Request: message text is empty');
  if (content.text.length > TEXT_LIMIT) throw new BadRequest('Bad Request: MESSAGE_TOO_LONG');
  return content;
}

/**
 * The inline keyboard of a reply_markup (object or JSON string), as Telegram echoes it, or
 * undefined (none, an empty one, or another kind of markup); a BadRequest when it is invalid.
 */
function inlineKeyboard(value: unknown): InlineKeyboardMarkup | undefined {
  if (value === undefined || value === '') return undefined;
  const markup = jsonParam(value, "Bad Request: can't parse reply keyboard markup JSON object");
  if (typeof markup !== 'object' || markup === null || Array.isArray(markup)) throw new BadRequest('Bad Request: object expected as reply markup');
  const rows = (markup as Record<string, unknown>).inline_keyboard;
  if (rows === undefined) return undefined;
  if (!Array.isArray(rows)) throw new BadRequest('Bad Request: field "inline_keyboard" must be of type Array');
  const keyboard = rows.map((row: unknown) => {
    if (!Array.isArray(row)) throw new BadRequest('Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays');
    return row.map((b: unknown) => inlineButton(b));
  });
  return keyboard.length === 0 ? undefined : { inline_keyboard: keyboard };
}

function inlineButton(value: unknown): InlineKeyboardButton {
  const refuse = (why: string): never => {
    throw new BadRequest(`Bad Request: can't parse inline keyboard button: ${why}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('InlineKeyboardButton must be an Object');
  const button = value as Record<string, unknown>;
  if (button.text === undefined) return refuse('Can\'t find field "text"');
  if (typeof button.text !== 'string' && typeof button.text !== 'number') return refuse('Field "text" must be of type String');
  // As the server reads them: an empty url or callback_data is no action.
  const actions = ACTIONS.filter((a) => button[a] !== undefined && !((a === 'url' || a === 'callback_data') && button[a] === ''));
  const action = actions[0];
  if (action === undefined) return refuse('Text buttons are unallowed in the inline keyboard');
  if (actions.length > 1) return refuse(`exactly one of the optional fields must be used, found ${actions.join(', ')}`);
  let field = button[action];
  if (action === 'url' || action === 'callback_data') {
    if (typeof field !== 'string' && typeof field !== 'number') return refuse(`Field "${action}" must be of type String`);
    field = String(field);
  }
  if (action === 'callback_data' && Buffer.byteLength(field as string, 'utf8') > 64) throw new BadRequest('Bad Request: BUTTON_DATA_INVALID');
  return { text: String(button.text), [action]: field };
}
