/**
 * A group as Pushover messages (POST /1/messages.json): a title (the group's headline), a text
 * of one block per alert, most urgent first, and the status page as the message's URL. Pushover
 * takes at most 1,024 characters of text: a larger group is split, in order, into as many
 * messages as its alerts need, each alert in exactly one, packed as full as the limit allows and
 * numbered in the title (`(2/5)`), so that no alert of a storm is lost. `max_messages`, when a
 * user sets it, caps that: the last message then says how many alerts had no room.
 *
 * Priority: a message takes its most urgent alert's, except that only the first message of a
 * split group may be an emergency (2, repeated until acknowledged): the others go at most at 1
 * (high), so a storm of critical alerts is one emergency and one receipt, not hundreds. The
 * alerts being sorted most urgent first, the first message always holds the group's top priority;
 * its receipt is about every firing emergency alert of the group, in whichever message (or none,
 * when capped) it is listed, and is cancelled once they have all resolved.
 *
 * In HTML mode, every piece of text is escaped: only spotwatch's own `<b>` reaches Pushover as markup.
 */
import { alertMark, alertSummary, CUT, fit, groupMark, headline, leftOut, place, since, upstreamMessage } from '../kit/chat-text';
import type { Notification, NotifiedAlert } from '../notifier';
import { fitFrom, partLabel, PART_LABELS } from '../kit/parts';
import { alertLevel, SEVERITY_SCALES } from '../kit/severity';
import { escapeHtml, oneLine } from '../kit/text';

/** Pushover's documented limits, in characters. */
export const PUSHOVER_LIMITS = { message: 1024, title: 250, url: 512, urlTitle: 100 } as const;

/** Room an alert's block leaves in a message for the line that counts the alerts left out (that line is at most 62 characters). */
const FOOTER_ROOM = 64;
/** The longest summary or place an alert's block shows. */
const LINE_LIMIT = 200;

export interface PushoverPayload {
  token: string;
  user: string;
  title: string;
  message: string;
  priority: number;
  html?: 1;
  url?: string;
  url_title?: string;
  retry?: number;
  expire?: number;
}

export interface PushoverMessage {
  payload: PushoverPayload;
  /** On an emergency (the first message only): the group's firing alerts whose own priority is an emergency; its receipt is cancelled once they have all resolved. */
  emergencies: string[];
}

export interface MessageOptions {
  token: string;
  user: string;
  priorities: Readonly<Record<string, number>>;
  other_priority: number;
  resolved_priority: number;
  retry: number;
  expire: number;
  html: boolean;
  /** At most this many messages a group; unset: as many as its alerts need. */
  max_messages?: number | undefined;
}

export const EMERGENCY = 2;
/** The most a message after a split group's first may be: high, no receipt, no repetition. */
export const HIGH = 1;

/** An alert's priority: by its severity while it fires, `resolved_priority` once it resolved. */
export function alertPriority(a: NotifiedAlert, o: Pick<MessageOptions, 'priorities' | 'other_priority' | 'resolved_priority'>): number {
  // severity.ts's pushover row, with the levels the block sets (its defaults are that row's).
  return alertLevel({ ...SEVERITY_SCALES.pushover, bySeverity: o.priorities, other: o.other_priority, resolved: o.resolved_priority }, a);
}

interface Block {
  alert: NotifiedAlert;
  priority: number;
  text: string;
  /** Its length in characters (code points), as Pushover counts them. */
  size: number;
}

export function pushoverMessages(n: Notification, o: MessageOptions): PushoverMessage[] {
  const escape = o.html ? escapeHtml : (t: string) => t;
  // Most urgent first (stable): the alerts that wake someone are in the first message.
  const blocks: Block[] = n.alerts
    .map((alert) => ({ alert, priority: alertPriority(alert, o) }))
    .sort((a, b) => b.priority - a.priority)
    .map(({ alert, priority }) => {
      const text = blockOf(alert, o.html, escape, PUSHOVER_LIMITS.message - FOOTER_ROOM);
      return { alert, priority, text, size: chars(text) };
    });
  const parts = paginate(blocks, n.truncatedAlerts, o.max_messages);
  const shown = parts.reduce((k, p) => k + p.length, 0);
  const left = blocks.length - shown + n.truncatedAlerts;
  const title = `${groupMark(n)} ${headline(n)}`;
  // The emergency's receipt stands for every firing emergency alert of the group, listed in any message or in none.
  const emergencies = blocks.filter((b) => b.alert.status === 'firing' && b.priority === EMERGENCY).map((b) => b.alert.fingerprint);
  return parts.map((part, i) => {
    const footer = i === parts.length - 1 ? footerOf(left) : '';
    const top = Math.max(...part.map((b) => b.priority));
    const priority = i === 0 ? top : Math.min(top, HIGH);
    const numbered = parts.length > 1 ? ` ${partLabel(PART_LABELS.pushover, i + 1, parts.length)}` : '';
    const url = part.length === 1 && footer === '' ? part[0]?.alert.generatorURL ?? '' : n.externalURL;
    const payload: PushoverPayload = {
      token: o.token,
      user: o.user,
      title: `${fit(title, PUSHOVER_LIMITS.title - numbered.length)}${numbered}`,
      message: `${part.map((b) => b.text).join(SEPARATOR)}${footer}`,
      priority,
      ...(o.html && { html: 1 as const }),
      ...(/^https?:\/\//.test(url) && url.length <= PUSHOVER_LIMITS.url && { url, url_title: 'spotwatch status page' }),
      ...(priority === EMERGENCY && { retry: o.retry, expire: o.expire }),
    };
    return { payload, emergencies: priority === EMERGENCY ? emergencies : [] };
  });
}

const SEPARATOR = '\n\n';

/** The last message's line for the alerts no message shows (none: nothing). */
function footerOf(left: number): string {
  return left > 0 ? `${SEPARATOR}… and ${leftOut(left)} (see the status page)` : '';
}

/** Characters as Pushover counts them: code points (an emoji is one, not two UTF-16 units). */
function chars(text: string): number {
  return [...text].length;
}

/**
 * The blocks, in order, as messages of at most 1,024 characters, each as full as it can be (in
 * a fixed order, filling each message before the next is the fewest messages). The last message
 * keeps room for the line counting the alerts left out when there are any: the notification's
 * own truncated ones, or, at the `cap`-th message, those that no message has room for.
 */
function paginate(blocks: readonly Block[], truncated: number, cap: number | undefined): Block[][] {
  const limit = PUSHOVER_LIMITS.message;
  const pages: Block[][] = [];
  const sizes = blocks.map((b) => b.size);
  for (let i = 0; i < blocks.length;) {
    const lastAllowed = pages.length + 1 === cap;
    let take = fitting(sizes, i, limit);
    const rest = i + take === blocks.length;
    // The count is at most what is not yet in a message: its line is never longer than that one's.
    if (lastAllowed && (!rest || truncated > 0)) take = fitting(sizes, i, limit - chars(footerOf(blocks.length - i + truncated)));
    else if (rest && truncated > 0) take = fitting(sizes, i, limit - chars(footerOf(truncated)));
    pages.push(blocks.slice(i, i + take));
    i += take;
    if (lastAllowed) break;
  }
  return pages;
}

/** How many blocks from `from` fit in `room` characters, a blank line between two; at least one (a block leaves FOOTER_ROOM). */
function fitting(sizes: readonly number[], from: number, room: number): number {
  return fitFrom([{ sizes, budget: room, separator: SEPARATOR.length }], from);
}

/**
 * `🔴 USDT withdrawals disabled on Tron(TRC20) (main)` (bold in HTML), then where and since
 * when (each at most LINE_LIMIT characters once escaped), then the exchange's own message, cut so
 * that the block fits `budget` characters once escaped (the message gives way first).
 */
function blockOf(a: NotifiedAlert, html: boolean, escape: (t: string) => string, budget: number): string {
  const summary = `${alertMark(a)} ${a.status === 'resolved' ? 'Resolved: ' : ''}${fitEscaped(alertSummary(a), LINE_LIMIT, escape)}`;
  const head = html ? `<b>${summary}</b>` : summary;
  const where = fitEscaped(oneLine(`${place(a)}, ${since(a)}`), LINE_LIMIT, escape);
  const fixed = `${head}\n${where}`;
  const message = upstreamMessage(a);
  if (message === undefined) return fixed;
  const text = fitEscaped(message, budget - fixed.length - 1, escape);
  return text === '' || text === CUT ? fixed : `${fixed}\n${text}`;
}

/**
 * `text` escaped, within `max` UTF-16 code units: escaping lengthens a text (`'` is `&#39;`), so
 * the raw text is cut (ending in CUT) as long as its escaped form fits, and no escape is ever cut
 * in two. Every line of a block is bounded this way, on the length Pushover sees. '' when not
 * even CUT fits.
 */
function fitEscaped(text: string, max: number, escape: (t: string) => string): string {
  const whole = escape(text);
  if (whole.length <= max) return whole;
  // The longest cut that fits: a longer cut never escapes shorter, and escaping never shortens a text.
  let best = '';
  for (let lo = CUT.length, hi = Math.min(text.length - 1, max); lo <= hi;) {
    const mid = Math.floor((lo + hi) / 2);
    const out = escape(fit(text, mid));
    if (out.length <= max) {
      best = out;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}
