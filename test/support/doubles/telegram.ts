/**
 * A loopback double of the Telegram Bot API, written from its public documentation
 * (core.telegram.org/bots/api: "Making requests", sendMessage, getUpdates, getMe,
 * ResponseParameters, "Formatting options"), not from the code under test:
 * - `https://api.telegram.org/bot<token>/METHOD`, GET or POST, parameters in the query string,
 *   as application/x-www-form-urlencoded or application/json; method names case-insensitive.
 * - Answers `{"ok":true,"result":...}` or `{"ok":false,"error_code":N,"description":"...",
 *   "parameters":{"retry_after":N}}` with the same HTTP status.
 * - sendMessage: `text` 1-4096 characters after entities parsing; parse_mode HTML (see
 *   telegram-html.ts); message_thread_id for a forum's topics; reply_parameters.
 * - getUpdates: an update is confirmed (and forgotten) once getUpdates is called with an offset
 *   higher than its update_id; `timeout` seconds of long polling; `allowed_updates` kept until
 *   given again; a second getUpdates ends the first with 409 Conflict.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenLoopback } from '../loopback';
import { ParseError, parseTelegramHtml } from './telegram-html';

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
  nextMessageId: number;
}

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
  readonly bot = { id: 0, is_bot: true, first_name: 'Spotwatch', username: 'SpotwatchBot' };
  private readonly faults = new Map<string, (Fault | 'pass')[]>();
  private readonly chats = new Map<string, Chat>();
  private updates: { update_id: number; message?: Record<string, unknown>; edited_message?: Record<string, unknown> }[] = [];
  private nextUpdateId = 7_000;
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
    this.chats.set(String(id), { id, type: options.type ?? (id < 0 ? 'supergroup' : 'private'), ...rest, threads: new Set(threads), messages: new Set(), nextMessageId: 1 });
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
    const id = this.nextUpdateId++;
    this.updates.push(options.edited ? { update_id: id, edited_message: message } : { update_id: id, message });
    this.deliver();
    return id;
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
      return this.error(res, 404, 'Not Found');
    });
  }

  private sendMessage(res: ServerResponse, p: Record<string, unknown>): void {
    const chat = this.chats.get(String(p.chat_id)) ?? [...this.chats.values()].find((c) => c.username !== undefined && `@${c.username}` === p.chat_id);
    if (chat === undefined) return this.error(res, 400, 'Bad Request: chat not found');
    if (chat.blocked) return this.error(res, 403, 'Forbidden: bot was blocked by the user');
    const thread = p.message_thread_id;
    if (thread !== undefined && !chat.threads.has(Number(thread))) return this.error(res, 400, 'Bad Request: message thread not found');
    if (typeof p.text !== 'string') return this.error(res, 400, 'Bad Request: message text is empty');
    let text = p.text;
    if (p.parse_mode !== undefined) {
      if (String(p.parse_mode).toLowerCase() !== 'html') return this.error(res, 400, 'Bad Request: unsupported parse_mode');
      try {
        text = parseTelegramHtml(p.text);
      } catch (err) {
        if (err instanceof ParseError) return this.error(res, 400, `Bad Request: can't parse entities: ${err.message}`);
        throw err;
      }
    }
    if (text.trim() === '') return this.error(res, 400, 'Bad Request: message text is empty');
    if (text.length > TEXT_LIMIT) return this.error(res, 400, 'Bad Request: message is too long');
    const reply = p.reply_parameters as { message_id?: number; allow_sending_without_reply?: boolean } | undefined;
    if (reply !== undefined && !chat.messages.has(Number(reply.message_id)) && reply.allow_sending_without_reply !== true) {
      return this.error(res, 400, 'Bad Request: message to be replied not found');
    }
    const messageId = chat.nextMessageId++;
    chat.messages.add(messageId);
    this.sent.push({ chatId: String(chat.id), text, params: p, messageId });
    this.ok(res, { message_id: messageId, date: Math.floor(Date.now() / 1000), chat: { id: chat.id, type: chat.type }, text, ...(thread !== undefined && { message_thread_id: thread }) });
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
