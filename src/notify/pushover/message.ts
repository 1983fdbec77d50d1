/**
 * A group as Pushover messages (POST /1/messages.json): a title (the group's headline), a text
 * of one block per alert, most urgent first, and the status page as the message's URL; the
 * priority of its most urgent alert. Pushover takes at most 1,024 characters of text: a group
 * too large for one message is split into up to `max_messages` messages, and the last one
 * says how many alerts had no room in any (a storm's 8,000 alerts are never silently dropped,
 * nor do they become 800 pushes to a phone). In HTML mode, every piece of text is escaped: only
 * spotwatch's own `<b>` reaches Pushover as markup.
 */
import { alertMark, alertSummary, CUT, fit, groupMark, headline, leftOut, place, since, upstreamMessage } from '../chat-text';
import type { Notification, NotifiedAlert } from '../notifier';
import { escapeHtml, oneLine } from '../text';

/** Pushover's documented limits, in characters. */
export const PUSHOVER_LIMITS = { message: 1024, title: 250, url: 512, urlTitle: 100 } as const;

/** Room kept in every message for the line that counts the alerts left out. */
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
  /** The firing alerts of this message whose own priority is an emergency: its receipt is cancelled once they have all resolved. */
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
  max_messages: number;
}

export const EMERGENCY = 2;

/** An alert's priority: by its severity while it fires, `resolved_priority` once it resolved. */
export function alertPriority(a: NotifiedAlert, o: Pick<MessageOptions, 'priorities' | 'other_priority' | 'resolved_priority'>): number {
  if (a.status === 'resolved') return o.resolved_priority;
  return o.priorities[(a.labels.severity ?? '').toLowerCase()] ?? o.other_priority;
}

interface Block {
  alert: NotifiedAlert;
  priority: number;
  text: string;
}

export function pushoverMessages(n: Notification, o: MessageOptions): PushoverMessage[] {
  const escape = o.html ? escapeHtml : (t: string) => t;
  const budget = PUSHOVER_LIMITS.message - FOOTER_ROOM;
  // Most urgent first (stable): the alerts that wake someone are the ones every message shows.
  const ordered = n.alerts.map((alert) => ({ alert, priority: alertPriority(alert, o) })).sort((a, b) => b.priority - a.priority);
  const all: Block[][] = [];
  let current: Block[] = [];
  let used = 0;
  for (const { alert, priority } of ordered) {
    if (all.length === o.max_messages) break;
    const text = blockOf(alert, o.html, escape, budget);
    if (current.length > 0 && used + 2 + text.length > budget) {
      all.push(current);
      current = [];
      used = 0;
      if (all.length === o.max_messages) break;
    }
    used += (current.length > 0 ? 2 : 0) + text.length;
    current.push({ alert, priority, text });
  }
  if (current.length > 0 && all.length < o.max_messages) all.push(current);
  const parts = all;
  const shown = parts.reduce((k, p) => k + p.length, 0);
  const left = n.alerts.length - shown + n.truncatedAlerts;
  const title = `${groupMark(n)} ${headline(n)}`;
  return parts.map((blocks, i) => {
    const last = i === parts.length - 1;
    const footer = last && left > 0 ? `\n\n… and ${leftOut(left)} (see the status page)` : '';
    const priority = Math.max(...blocks.map((b) => b.priority));
    const numbered = parts.length > 1 ? ` (${i + 1}/${parts.length})` : '';
    const url = blocks.length === 1 && footer === '' ? blocks[0]?.alert.generatorURL ?? '' : n.externalURL;
    const payload: PushoverPayload = {
      token: o.token,
      user: o.user,
      title: `${fit(title, PUSHOVER_LIMITS.title - numbered.length)}${numbered}`,
      message: `${blocks.map((b) => b.text).join('\n\n')}${footer}`,
      priority,
      ...(o.html && { html: 1 as const }),
      ...(/^https?:\/\//.test(url) && url.length <= PUSHOVER_LIMITS.url && { url, url_title: 'spotwatch status page' }),
      ...(priority === EMERGENCY && { retry: o.retry, expire: o.expire }),
    };
    const emergencies = blocks.filter((b) => b.alert.status === 'firing' && b.priority === EMERGENCY).map((b) => b.alert.fingerprint);
    return { payload, emergencies };
  });
}

/**
 * `🔴 USDT withdrawals disabled on Tron(TRC20) (main)` (bold in HTML), then where and since
 * when, then the exchange's own message, cut so that the block fits `budget` characters once
 * escaped (the message gives way first).
 */
function blockOf(a: NotifiedAlert, html: boolean, escape: (t: string) => string, budget: number): string {
  const summary = `${alertMark(a)} ${a.status === 'resolved' ? 'Resolved: ' : ''}${escape(fit(alertSummary(a), LINE_LIMIT))}`;
  const head = html ? `<b>${summary}</b>` : summary;
  const where = escape(fit(oneLine(`${place(a)}, ${since(a)}`), LINE_LIMIT));
  const fixed = `${head}\n${where}`;
  const message = upstreamMessage(a);
  if (message === undefined) return fixed;
  const avail = budget - fixed.length - 1;
  let room = avail;
  // Escaping lengthens the text: cut the raw message, by the escapes' share, until its escaped form fits.
  for (;;) {
    if (room <= CUT.length) return fixed;
    const text = escape(fit(message, room));
    if (text.length <= avail) return `${fixed}\n${text}`;
    room = Math.min(room - 1, Math.floor((room * avail) / text.length));
  }
}
