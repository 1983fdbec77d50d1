/**
 * A group as Gotify messages (`POST /message`'s JSON body): the headline as the title, a block
 * per alert as the message, the priority from the group's most severe firing alert, a click on
 * the notification opening the status page. Markdown (`client::display.contentType`) unless the
 * block says `markdown: false`; upstream text is then escaped so that it renders as written.
 *
 * Gotify documents no size limit, but it stores each message in one database text column (64 KB
 * on MySQL) and pushes it whole to every phone: a message is kept within MESSAGE_BYTES, and a group
 * with more alerts (a storm's 8,000) is split into as many messages as it takes, each titled
 * `(part i/n)`, so that no alert is lost.
 */
import { alertMark, alertSummary, fit, groupMark, headline, leftOut, place, since, upstreamMessage } from '../kit/chat-text';
import { packParts, partLabel, PART_LABELS, utf8Bytes } from '../kit/parts';
import { groupLevel, SEVERITY_SCALES } from '../kit/severity';
import type { Notification, NotifiedAlert } from '../notifier';
import { oneLine } from '../kit/text';

/** The most UTF-8 bytes of a message's text: half of MySQL's TEXT column, a screenful of alerts many times over. */
export const MESSAGE_BYTES = 32_000;

/** Longest upstream texts, in characters before escaping: one 100 KB message must not crowd out the others. */
export const GOTIFY_MAX = { title: 250, summary: 300, place: 300, message: 1000 } as const;


export interface GotifyMessage {
  title: string;
  message: string;
  priority: number;
  extras: {
    'client::display': { contentType: 'text/markdown' | 'text/plain' };
    'client::notification'?: { click: { url: string } };
  };
}

/**
 * Upstream text inert in markdown: every ASCII punctuation character backslash-escaped (CommonMark
 * lets any of them be), so no emphasis, link, image, HTML tag, heading, list, table or code span
 * can start, and on one line.
 */
export function escapeMarkdown(text: string): string {
  return oneLine(text).replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '\\$&');
}

/** The priority of a group (severity.ts's gotify row): its most severe firing alert's; a group with none firing is resolved. */
export function gotifyPriority(n: Notification): number {
  return groupLevel(SEVERITY_SCALES.gotify, n);
}

/** One alert's block: its mark and summary, where and since when, and the exchange's message. */
export function alertBlock(a: NotifiedAlert, markdown: boolean): string {
  const esc = markdown ? (t: string) => escapeMarkdown(t) : (t: string) => oneLine(t);
  // Cut before escaping: an escape is never cut in half.
  const cut = (t: string, max: number) => fit(t, max);
  const summary = `${a.status === 'resolved' ? 'Resolved: ' : ''}${cut(alertSummary(a), GOTIFY_MAX.summary)}`;
  const message = upstreamMessage(a);
  const lines = [
    `${alertMark(a)} ${markdown ? `**${esc(summary)}**` : esc(summary)}`,
    `${esc(cut(place(a), GOTIFY_MAX.place))} · ${esc(since(a))}`,
    ...(message !== undefined ? [markdown ? `> ${esc(cut(message, GOTIFY_MAX.message))}` : `Message: ${esc(cut(message, GOTIFY_MAX.message))}`] : []),
  ];
  // Markdown joins lines of a paragraph: two spaces end a line.
  return lines.join(markdown ? '  \n' : '\n');
}

/** The group as one or more Gotify messages, every alert in one of them, each within MESSAGE_BYTES. */
export function gotifyMessages(n: Notification, markdown = true): GotifyMessage[] {
  const blocks = n.alerts.map((a) => alertBlock(a, markdown));
  const separator = '\n\n';
  const more = n.truncatedAlerts > 0 ? `${separator}${leftOut(n.truncatedAlerts)}` : '';
  // Every page keeps room for the last one's "N more" line; a block alone is always smaller than a page.
  const sizes = blocks.map(utf8Bytes);
  const pages: string[][] = [];
  let i = 0;
  for (const take of packParts([{ sizes, budget: MESSAGE_BYTES - utf8Bytes(more), separator: separator.length, frame: separator.length }])) {
    pages.push(blocks.slice(i, i + take));
    i += take;
  }
  const title = `${groupMark(n)} ${fit(headline(n), GOTIFY_MAX.title)}`;
  const priority = gotifyPriority(n);
  const click = /^https?:\/\//.test(n.externalURL) ? { 'client::notification': { click: { url: n.externalURL } } } : {};
  return pages.map((page, i) => ({
    title: pages.length > 1 ? `${title} ${partLabel(PART_LABELS.gotify, i + 1, pages.length)}` : title,
    message: `${page.join(separator)}${i === pages.length - 1 ? more : ''}`.replace(/^\n+/, '') || title,
    priority,
    extras: { 'client::display': { contentType: markdown ? 'text/markdown' : 'text/plain' }, ...click },
  }));
}
