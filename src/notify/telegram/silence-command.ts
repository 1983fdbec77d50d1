/**
 * `/silence MATCHER... DURATION [comment]`, `/silences`, `/unsilence ID`: the API's silences
 * (POST /api/v1/silences, validated there), from the chat. Matchers are Alertmanager's
 * (`coin=USDT` equal, `coin!=USDT` not equal, `coin=~USD.*` regex, `coin!~...` not a regex).
 */
import { parseDuration } from '../../lib/duration';
import type { Silence } from '../plugin';
import type { BotContext, SilenceRequest } from './bot-context';
import { plainUpstream } from './html';
import { span } from '../../lib/duration';
import { shortTime } from './message';
import type { TgChat, TgUser } from './updates';

const MATCHER = /^([A-Za-z_][A-Za-z0-9_]*)(=~|!~|!=|=)(.+)$/;

export const SILENCE_USAGE = 'Usage: /silence MATCHER... DURATION [comment], e.g. /silence coin=USDT network=TRX 2h wallet upgrade';

/** How much of a silence's id is shown (and enough to end it, when no other starts the same). */
const SHORT_ID = 8;

export const iso = (ms: number): string => shortTime(new Date(ms).toISOString()) ?? String(ms);

/**
 * Who asks for a change: the user, and the chat they speak as when they speak for one (an
 * anonymous group admin, whose `from` is Telegram's GroupAnonymousBot, or a channel).
 */
export interface Asker {
  from?: TgUser | undefined;
  as?: TgChat | undefined;
}

/** Who a silence is created by, as Telegram names them (`telegram:@ada`, `telegram:Ada (42)`, `telegram:Desk group (anonymous)`). */
export function createdBy({ from, as }: Asker): string {
  if (as !== undefined) return `telegram:${plainUpstream(as.title ?? (as.username === undefined ? String(as.id) : `@${as.username}`), 64)} (anonymous)`;
  if (from === undefined) return 'telegram';
  return `telegram:${from.username !== undefined ? `@${from.username}` : `${plainUpstream(from.first_name ?? 'user', 64)} (${from.id})`}`;
}

/** Whether one may change silences (`/silence`, `/unsilence`, the buttons): anyone in the chat, or only the people `allowed_users` lists (never someone anonymous). */
export function mayChange({ from, as }: Asker, allowedUsers: readonly number[] | undefined): boolean {
  return allowedUsers === undefined || (as === undefined && from !== undefined && allowedUsers.includes(from.id));
}

/** The polite answer to someone `allowed_users` does not list; nothing changes. */
export function refusal(what: string, { from, as }: Asker): string {
  if (as !== undefined) return `Sorry, only the people this bot's allowed_users lists may ${what}, and this came anonymously: send it as yourself.`;
  const id = from === undefined ? '' : ` Your Telegram id is ${from.id}: ask whoever runs spotwatch to add it.`;
  return `Sorry, only the people this bot's allowed_users lists may ${what}.${id}`;
}

/** A pattern's literal text, or undefined when it uses a regex operator (literalPattern's inverse). */
function literalOf(regex: string): string | undefined {
  let out = '';
  for (let i = 0; i < regex.length; i++) {
    const c = regex[i] as string;
    if (c === '\\') {
      const next = regex[i + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) return undefined;
      out += next;
      i += 1;
    } else if ('.^$|+()[]{}*?'.includes(c)) {
      return undefined;
    } else {
      out += c;
    }
  }
  return out;
}

/** A stored matcher as it would be typed: `coin=USDT`, `coin!~USD.*`, `coin=USD*` (a glob from the API or config). */
export function describeMatcher(m: { label: string; pattern: string }): string {
  const negated = m.pattern.startsWith('!');
  const body = negated ? m.pattern.slice(1) : m.pattern;
  const regex = /^\/([\s\S]*)\/$/.exec(body)?.[1];
  if (regex === undefined) return `${m.label}${negated ? '!=' : '='}${body}`;
  const literal = literalOf(regex);
  if (literal !== undefined) return `${m.label}${negated ? '!=' : '='}${literal}`;
  return `${m.label}${negated ? '!~' : '=~'}${regex}`;
}

function describe(s: Silence): string {
  return plainUpstream(s.matchers.map(describeMatcher).join(' '), 300);
}

/** `/silence ...`: the reply. */
export function silenceCommand(args: string, ctx: BotContext, createdBy: string): string {
  const words = args.split(/\s+/).filter((w) => w !== '');
  const matchers: SilenceRequest['matchers'] = [];
  let i = 0;
  for (let m = MATCHER.exec(words[i] ?? ''); m !== null; m = MATCHER.exec(words[i] ?? '')) {
    const [, name, op, raw] = m as unknown as [string, string, string, string];
    const value = /^"(.*)"$/.exec(raw)?.[1] ?? raw;
    matchers.push({ name, value, isRegex: op === '=~' || op === '!~', isEqual: op === '=' || op === '=~' });
    i += 1;
  }
  if (matchers.length === 0) return `Not silenced: give at least one matcher such as coin=USDT.\n${SILENCE_USAGE}`;
  const ms = parseDuration(words[i] ?? '');
  if (ms === undefined || ms <= 0) return `Not silenced: after the matchers, give how long, such as 30m, 2h or 1d.\n${SILENCE_USAGE}`;
  const now = ctx.now();
  const made = ctx.silences.create({ matchers, endsAt: now + ms, comment: words.slice(i + 1).join(' '), createdBy });
  if (typeof made === 'string') return `Not silenced: ${plainUpstream(made, 300)}`;
  const id = made.id.slice(0, SHORT_ID);
  return `Silenced ${describe(made)} until ${iso(made.endsAt)} (${span(made.endsAt - now)}). ID ${id}: /unsilence ${id} ends it.`;
}

function active(ctx: BotContext): Silence[] {
  const now = ctx.now();
  return ctx.silences.list().filter((s) => s.endsAt > now).sort((a, b) => a.endsAt - b.endsAt);
}

/** `/silences`: what is silenced now or soon, ending first first. */
export function silencesLines(ctx: BotContext): string[] {
  const now = ctx.now();
  const list = active(ctx);
  if (list.length === 0) return ['No silences. /silence creates one.'];
  return [
    `${list.length} silence${list.length === 1 ? '' : 's'}:`,
    ...list.map((s) => {
      const when = s.startsAt > now ? `from ${iso(s.startsAt)} until ${iso(s.endsAt)}` : `until ${iso(s.endsAt)} (${span(s.endsAt - now)} left)`;
      const about = [s.comment, s.createdBy ? `by ${s.createdBy}` : ''].filter((v) => v !== '').map((v) => plainUpstream(v, 200));
      return [`${s.id.slice(0, SHORT_ID)} ${describe(s)}`, when, ...about].join(' · ');
    }),
  ];
}

/** `/unsilence ID`: an id, or the start of one that no other silence shares. */
export function unsilenceCommand(args: string, ctx: BotContext): string {
  const wanted = args.trim().split(/\s+/)[0] ?? '';
  if (wanted === '') return 'Usage: /unsilence ID (/silences lists them)';
  const found = active(ctx).filter((s) => s.id === wanted || (wanted.length >= 4 && s.id.startsWith(wanted)));
  const shown = plainUpstream(wanted, 40);
  if (found.length === 0) return `No silence ${shown} is active. /silences lists them.`;
  if (found.length > 1) return `${found.length} silences start with ${shown}: give more of the ID.`;
  const s = found[0] as Silence;
  if (!ctx.silences.expire(s.id)) return `No silence ${shown} is active. /silences lists them.`;
  return `Silence ${s.id.slice(0, SHORT_ID)} (${describe(s)}) ended.`;
}
