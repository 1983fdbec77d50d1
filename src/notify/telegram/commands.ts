/**
 * The bot's commands, answered in its configured chat only, as plain short replies to the
 * command's message: /status, /closed [COIN], /notices [COIN], /silence, /silences, /unsilence, /help
 * (with `allowed_users`, only they may run /silence and /unsilence: anyone else is refused). A command
 * is `/name` or `/name@ThisBot`; one addressed to another bot, anything from another chat (counted),
 * and commands older than STALE_MS (the backlog of a long downtime) are not answered.
 */
import type { Logger } from '../../lib/logger';
import type { BotContext, ClosedNetwork, NoticeAnnouncement, NoticeWindow } from './bot-context';
import { plainUpstream } from './html';
import { span } from '../../lib/duration';
import { shortTime, TELEGRAM_TEXT_LIMIT } from './message';
import type { TgChat, TgMessage, TgUpdate, TgUser } from './updates';
import { createdBy, mayChange, refusal, silenceCommand, silencesLines, unsilenceCommand, type Asker } from './silence-command';

/** A command sent longer ago than this is not run: a /silence from yesterday is not what anyone wants now. */
export const STALE_MS = 10 * 60_000;

/** Replies stay well inside a message. */
const REPLY_LIMIT = TELEGRAM_TEXT_LIMIT - 200;

export const HELP = [
  'spotwatch commands:',
  '/status: exchanges, their health, alerts firing',
  '/closed [COIN]: closed networks, since when, the exchange\'s message',
  '/notices [COIN]: maintenance ongoing and upcoming, the last week\'s announcements',
  '/silence MATCHER... DURATION [comment]: mute alerts, e.g. /silence coin=USDT network=TRX 2h wallet upgrade (= equal, != not equal, =~ regex, !~ not a regex)',
  '/silences: silences in force',
  '/unsilence ID: end a silence',
  '/help: this list',
].join('\n');

export interface Command {
  name: string;
  args: string;
}

/** `/name args` or `/name@bot args`; undefined when it is no command, or one for another bot. */
export function parseCommand(text: string, username: string | undefined): Command | undefined {
  const m = /^\/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{1,64}))?(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (m === null) return undefined;
  const [, name, to, args] = m;
  if (to !== undefined && username !== undefined && to.toLowerCase() !== username.toLowerCase()) return undefined;
  return { name: (name as string).toLowerCase(), args: (args ?? '').trim() };
}

/** The configured chat: its number, or a public chat's @username. */
export function sameChat(chat: TgChat, chatId: string): boolean {
  if (String(chat.id) === chatId) return true;
  return chatId.startsWith('@') && chat.username !== undefined && chat.username.toLowerCase() === chatId.slice(1).toLowerCase();
}

/** Lines up to the reply's limit, the rest counted. */
export function fitLines(lines: readonly string[], what: string): string {
  const out: string[] = [];
  let length = 0;
  for (const [i, line] of lines.entries()) {
    if (length + line.length + 1 > REPLY_LIMIT) {
      out.push(`…and ${lines.length - i} more ${what}`);
      break;
    }
    out.push(line);
    length += line.length + 1;
  }
  return out.join('\n');
}

function statusText(ctx: BotContext): string {
  const { exchanges, firing } = ctx.status();
  const now = ctx.now();
  const lines = exchanges.map((e) => {
    const health = e.up ? '✅ up' : `❌ DOWN${e.lastError ? ` (${plainUpstream(e.lastError, 120)})` : ''}`;
    const polled = e.lastPollAt === null ? 'not polled yet' : `polled ${span(now - Date.parse(e.lastPollAt))} ago`;
    return `${plainUpstream(e.name, 60)}: ${health} · ${e.coins} coins · ${e.networks} networks, ${e.closed} closed · ${e.firing} firing · ${polled}`;
  });
  const head = `${exchanges.length} exchange${exchanges.length === 1 ? '' : 's'} · ${firing} alert${firing === 1 ? '' : 's'} firing`;
  return fitLines([head, ...lines], 'exchanges');
}

function closedLine(c: ClosedNetwork, now: number): string {
  const what = !c.deposit && !c.withdraw ? 'deposits and withdrawals' : c.withdraw ? 'deposits' : 'withdrawals';
  const since = c.since === null ? 'since before the kept history' : `since ${shortTime(new Date(c.since).toISOString())} (${span(now - c.since)})`;
  const where = [c.coin, c.network, c.exchange].map((v) => plainUpstream(v, 60)).join(' · ');
  return `${where}: ${what} closed ${since}${c.message ? `\n   “${plainUpstream(c.message, 300)}”` : ''}`;
}

function closedText(ctx: BotContext, args: string): string {
  const coin = args.split(/\s+/)[0] || undefined;
  const rows = ctx.closed(coin);
  const of = coin === undefined ? '' : ` of ${plainUpstream(coin, 20)}`;
  if (rows.length === 0) return `No network${of} is closed.`;
  const now = ctx.now();
  return fitLines([`${rows.length} closed network${rows.length === 1 ? '' : 's'}${of}, newest first:`, ...rows.map((c) => closedLine(c, now))], 'networks (the status page lists them all)');
}

function when(ms: number): string {
  return shortTime(new Date(ms).toISOString()) ?? '?';
}

function windowLine(w: NoticeWindow, now: number): string {
  const ends = w.ends === null ? 'end unknown' : `until ${when(w.ends)}`;
  const at = w.state === 'ongoing' ? `ongoing since ${when(w.begins)}, ${ends}` : `${w.begins > now ? `in ${span(w.begins - now)}` : 'due'}: ${when(w.begins)}, ${ends}`;
  return `🔧 ${plainUpstream(w.exchange, 60)} · ${at}\n   “${plainUpstream(w.title, 300)}”${w.url === null ? '' : ` ${plainUpstream(w.url, 300)}`}`;
}

function announcementLine(a: NoticeAnnouncement, now: number): string {
  return `📢 ${plainUpstream(a.exchange, 60)} · ${plainUpstream(a.kind, 20)} · ${when(a.published)} (${span(now - a.published)} ago)\n   “${plainUpstream(a.title, 300)}”${a.url === null ? '' : ` ${plainUpstream(a.url, 300)}`}`;
}

function noticesText(ctx: BotContext, args: string): string {
  const coin = args.split(/\s+/)[0] || undefined;
  const { windows, announcements } = ctx.notices(coin);
  const naming = coin === undefined ? '' : ` naming ${plainUpstream(coin, 20)}`;
  if (windows.length === 0 && announcements.length === 0) return `No maintenance window${naming} is ongoing or upcoming, and no announcement${naming} in the last 7 days.`;
  const now = ctx.now();
  const ongoing = windows.filter((w) => w.state === 'ongoing').length;
  const lines = [
    `Maintenance${naming}: ${ongoing} ongoing, ${windows.length - ongoing} upcoming`,
    ...windows.map((w) => windowLine(w, now)),
    `Announcements${naming} in the last 7 days: ${announcements.length}, newest first`,
    ...announcements.map((a) => announcementLine(a, now)),
  ];
  return fitLines(lines, 'notices (GET /api/v1/notices lists them all)');
}

/** The reply to a command (plain text). `allowedUsers`: who may run those that change something (all, when undefined). */
export function answer(cmd: Command, ctx: BotContext, who: Asker, allowedUsers?: readonly number[]): string {
  switch (cmd.name) {
    case 'status':
      return statusText(ctx);
    case 'closed':
      return closedText(ctx, cmd.args);
    case 'notices':
      return noticesText(ctx, cmd.args);
    case 'silence':
      return mayChange(who, allowedUsers) ? silenceCommand(cmd.args, ctx, createdBy(who)) : refusal('run /silence', who);
    case 'silences':
      return fitLines(silencesLines(ctx), 'silences');
    case 'unsilence':
      return mayChange(who, allowedUsers) ? unsilenceCommand(cmd.args, ctx) : refusal('run /unsilence', who);
    case 'help':
    case 'start':
      return HELP;
    default:
      return `Unknown command /${plainUpstream(cmd.name, 32)}. /help lists the commands.`;
  }
}

export interface ChatDeps {
  receiver: string;
  /** The configured chat_id. */
  chatId: string;
  /** allowed_users: who may change silences (everyone in the chat when undefined). */
  allowedUsers?: readonly number[] | undefined;
  context: BotContext;
  logger: Logger;
  /** Sends `text` as a reply to `to`. */
  reply(to: TgMessage, text: string, signal: AbortSignal): Promise<void>;
}

/** One update: answered when it is a command for this bot, from its chat, and recent. */
export async function answerUpdate(update: TgUpdate, me: TgUser, deps: ChatDeps, signal: AbortSignal): Promise<void> {
  const m = update.message;
  if (m === undefined || m.chat === undefined) return;
  if (!sameChat(m.chat, deps.chatId)) {
    deps.context.ignored(deps.receiver, 'other_chat');
    deps.logger.debug({ receiver: deps.receiver, chat: m.chat.id }, 'Telegram update from another chat ignored');
    return;
  }
  // Other bots are not answered; an anonymous admin's message comes from a bot (GroupAnonymousBot) with the group as sender_chat.
  if (typeof m.text !== 'string' || (m.from?.is_bot === true && m.sender_chat === undefined)) return;
  const cmd = parseCommand(m.text, me.username);
  if (cmd === undefined) return;
  // Telegram's date is its servers' wall clock: compared with ours as the system has it (the daemon's
  // anchored `now` does not follow a step until it restarts, README "Clock").
  if ((deps.context.wall?.() ?? deps.context.now()) - m.date * 1000 > STALE_MS) {
    deps.context.ignored(deps.receiver, 'stale');
    deps.logger.info({ receiver: deps.receiver, command: cmd.name, sentAt: new Date(m.date * 1000).toISOString() }, 'Telegram command too old to run; ignored');
    return;
  }
  await deps.context.refresh?.();
  const who: Asker = { from: m.from, as: m.sender_chat };
  const text = answer(cmd, deps.context, who, deps.allowedUsers);
  const refused = (cmd.name === 'silence' || cmd.name === 'unsilence') && !mayChange(who, deps.allowedUsers);
  if (refused) deps.context.ignored(deps.receiver, 'not_allowed');
  deps.logger.info({ receiver: deps.receiver, command: cmd.name, from: m.from?.id, ...(refused && { refused: 'not in allowed_users' }) }, 'Telegram command answered');
  await deps.reply(m, text, signal);
}
