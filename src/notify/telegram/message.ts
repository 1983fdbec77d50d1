/**
 * A group's notification as Telegram messages (HTML parse mode) that read well on a phone: a
 * header with a severity mark, then per alert what closed or moved, where (coin, network, chain,
 * exchange), since when, and the exchange's own message; a link to the status page. At most
 * TELEGRAM_TEXT_LIMIT characters of text each (as Telegram counts them, after parsing), over at
 * most MAX_MESSAGES messages; what does not fit is counted ("...and 12 more alerts").
 */
import { render } from '../../lib/template';
import { alertMark, groupMark } from '../kit/chat-text';
import { ZERO_TIME, type Notification, type NotifiedAlert } from '../notifier';
import { packParts, partLabel, PART_LABELS } from '../kit/parts';
import { notificationFields } from '../kit/text';
import { parsedText, upstreamHtml } from './html';
import { span } from '../../lib/duration';

/** sendMessage's text: "1-4096 characters after entities parsing". */
export const TELEGRAM_TEXT_LIMIT = 4096;

/** A group is told in at most this many messages: a storm is a few messages, not a flood. */
export const MAX_MESSAGES = 3;

/**
 * The default message. Fields: those of notify/kit/text.ts (escaped), and `header`, `alerts` (this
 * message's share of the alerts, as HTML), `more` (the line counting the alerts left out, or
 * nothing), `omitted` (how many), `mark` (the group's severity mark), `part` and `parts`.
 */
export const DEFAULT_TEMPLATE = '{{header}}\n\n{{alerts}}{{more}}\n\n<a href="{{externalURL}}">Status page</a>';

/** Longest upstream texts, before escaping: a 100 KB message must not crowd out the others. */
const MAX = { summary: 300, label: 80, message: 600, field: 1000 } as const;

/** Room kept for the `more` line, a part count in the header, and the line a one-tap silence adds (buttons.ts). */
const RESERVE = 200;

/** `2026-01-02 03:04 UTC`; undefined for Alertmanager's zero time or anything unreadable. */
export function shortTime(iso: string): string | undefined {
  const ms = Date.parse(iso);
  if (iso === ZERO_TIME || Number.isNaN(ms)) return undefined;
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function since(a: NotifiedAlert): string {
  const start = shortTime(a.startsAt);
  if (a.status === 'firing') return start === undefined ? '' : `since ${start}`;
  const end = shortTime(a.endsAt);
  if (end === undefined) return 'resolved';
  const took = start === undefined ? '' : `, after ${span(Date.parse(a.endsAt) - Date.parse(a.startsAt))}`;
  return `resolved ${end}${took}`;
}

/** One alert, as HTML: every upstream value escaped, clipped and defused. */
export function alertBlock(a: NotifiedAlert): string {
  const l = a.labels;
  const network = l.network === undefined ? undefined : l.chain === undefined ? l.network : `${l.network} (${l.chain})`;
  const where = [l.coin, network, l.symbol, l.exchange].filter((v): v is string => v !== undefined && v !== '').map((v) => upstreamHtml(v, MAX.label));
  const message = a.annotations.withdraw_desc || a.annotations.deposit_desc;
  const lines = [
    `${alertMark(a)} <b>${upstreamHtml(a.annotations.summary || l.alertname || 'alert', MAX.summary)}</b>`,
    where.join(' · '),
    since(a),
    message ? `💬 <i>${upstreamHtml(message, MAX.message)}</i>` : '',
  ];
  return lines.filter((line) => line !== '').join('\n');
}

function header(n: Notification, mark: string, part: number, parts: number): string {
  const firing = n.alerts.filter((a) => a.status === 'firing').length;
  const resolved = n.alerts.length - firing;
  const name = n.groupLabels.alertname ?? n.commonLabels.alertname;
  const exchange = n.groupLabels.exchange ?? n.commonLabels.exchange;
  const title = [n.status === 'firing' ? 'FIRING' : 'RESOLVED', name].filter((v) => v !== undefined).map((v) => upstreamHtml(v, MAX.label)).join(' · ');
  const total = n.alerts.length + n.truncatedAlerts;
  const count = firing > 0 && resolved > 0 ? `${firing} firing, ${resolved} resolved` : `${total} alert${total === 1 ? '' : 's'}`;
  const rest = [exchange === undefined ? undefined : upstreamHtml(exchange, MAX.label), count, parts > 1 ? partLabel(PART_LABELS.telegram, part, parts) : undefined];
  return `${mark} <b>${title}</b> · ${rest.filter((v) => v !== undefined).join(' · ')}`;
}

export interface TelegramMessages {
  /** The messages' HTML, in order. */
  parts: string[];
  /** The alerts each message lists (what its buttons silence). */
  listed: NotifiedAlert[][];
  /** Alerts not shown in any of them. */
  omitted: number;
}

/** The template is too long to leave room for even one alert: no send can succeed. */
export class TemplateTooLong extends Error {
  override readonly name = 'TemplateTooLong';
}

/** The messages for one notification, each within Telegram's limit. */
export function telegramMessages(n: Notification, template: string = DEFAULT_TEMPLATE): TelegramMessages {
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(notificationFields(n))) fields[k] = upstreamHtml(String(v ?? ''), MAX.field);
  const mark = groupMark(n);
  const fill = (alerts: string, more: string, omitted: number, part: number, parts: number): string =>
    render(template, { ...fields, mark, header: header(n, mark, part, parts), alerts, more, omitted: String(omitted), part: String(part), parts: String(parts) });
  const budget = TELEGRAM_TEXT_LIMIT - RESERVE - parsedText(fill('', '', 0, 1, 1)).length;
  const blocks = n.alerts.map(alertBlock);
  // Each block with the blank line before the next (parsed: what Telegram counts).
  const lengths = blocks.map((block) => parsedText(block).length + 2);
  const counts = packParts([{ sizes: lengths, budget }], MAX_MESSAGES);
  const shown = counts.reduce((a, b) => a + b, 0);
  // Every alert placed, and the first that had no room, has a length that fits a message alone.
  const tooLong = lengths.slice(0, shown + 1).find((length) => length > budget);
  if (tooLong !== undefined) throw new TemplateTooLong(`the template leaves ${budget} characters for alerts; one needs ${tooLong}`);
  const pages: { blocks: string[]; alerts: NotifiedAlert[] }[] = [];
  let from = 0;
  for (const count of counts) {
    pages.push({ blocks: blocks.slice(from, from + count), alerts: n.alerts.slice(from, from + count) });
    from += count;
  }
  const omitted = n.alerts.length - shown + n.truncatedAlerts;
  const more = omitted > 0 ? `\n\n…and ${omitted} more alert${omitted === 1 ? '' : 's'} not shown here` : '';
  const parts = pages.map((page, i) => fill(page.blocks.join('\n\n'), i === pages.length - 1 ? more : '', omitted, i + 1, pages.length));
  return { parts, listed: pages.map((page) => page.alerts), omitted };
}
