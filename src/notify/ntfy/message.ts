/**
 * A group as ntfy messages (JSON publishing: `POST /` with `{topic, title, message, tags,
 * priority, click}`). Plain text: `markdown` is never set, so upstream text needs no escaping
 * beyond being kept on its lines (control characters become spaces). A message body over ntfy's
 * 4,096 bytes (4,096 included) would become an attachment, so a group is split, in order, into as many messages
 * as its alerts need, each under the limit: no alert is ever left out (a storm's 8,000 alerts are
 * a few hundred messages, numbered in their titles).
 */
import { alertMark, alertSummary, CUT, fit, groupMark, headline, leftOut, place, RESOLVED_MARK, since, upstreamMessage } from '../kit/chat-text';
import type { Notification, NotifiedAlert } from '../notifier';
import { packParts, partLabel, PART_LABELS, utf8Bytes } from '../kit/parts';
import { groupLevel, SEVERITY_SCALES } from '../kit/severity';
import { oneLine } from '../kit/text';

/**
 * ntfy's default `message-size-limit`, in bytes: a body of this many bytes or more becomes an
 * attachment (the server peeks that many bytes and takes a full read as too long), so a body is
 * at most NTFY_MESSAGE_LIMIT - 1 bytes.
 */
export const NTFY_MESSAGE_LIMIT = 4096;
/** The most bytes a message body is: under NTFY_MESSAGE_LIMIT. */
const BODY_LIMIT = NTFY_MESSAGE_LIMIT - 1;
/**
 * The most bytes a JSON publish is: the server reads at most twice the message size limit and
 * refuses a body that fills it (413 `JSON body too large`, 41303). Quotes and backslashes take
 * two bytes there, so messages are packed by both sizes.
 */
export const NTFY_JSON_LIMIT = NTFY_MESSAGE_LIMIT * 2 - 1;
/** The longest title (the group's headline, numbered), in UTF-16 code units. */
const TITLE_LIMIT = 250;
/** The longest exchange tag. */
const TAG_LIMIT = 100;
/** At most this much of a message is one alert, so that every alert fits in a message with the note. */
export const NTFY_ALERT_LIMIT = 1024;


/** The ntfy emoji shortcode of each mark (chat-text.ts's), shown before the title. */
const MARK_TAGS: Readonly<Record<string, string>> = {
  '🔴': 'red_circle', '🟠': 'orange_circle', '🟡': 'yellow_circle', '🔵': 'large_blue_circle', [RESOLVED_MARK]: 'white_check_mark', '⚪': 'white_circle',
};

export interface NtfyMessage {
  topic: string;
  title: string;
  message: string;
  tags: string[];
  priority: number;
  click?: string;
}

/** The group's priority (severity.ts's ntfy row): its most severe firing alert's. */
export function ntfyPriority(n: Notification): number {
  return groupLevel(SEVERITY_SCALES.ntfy, n);
}

/** `text` within `max` UTF-8 bytes, ending in CUT when cut, never inside a character. */
export function cutBytes(text: string, max: number): string {
  if (utf8Bytes(text) <= max) return text;
  const room = max - utf8Bytes(CUT);
  let out = '';
  let used = 0;
  for (const ch of text) {
    const size = utf8Bytes(ch);
    if (used + size > room) break;
    out += ch;
    used += size;
  }
  return `${out}${CUT}`;
}

/** An alert in a few lines: what, where and since when, and the exchange's message. */
export function alertText(a: NotifiedAlert): string {
  const message = upstreamMessage(a);
  const lines = [
    `${alertMark(a)} ${a.status === 'resolved' ? 'Resolved: ' : ''}${alertSummary(a)}`,
    `${place(a)}, ${since(a)}`,
    ...(message !== undefined ? [`Message: ${message}`] : []),
  ];
  return cutBytes(lines.map(oneLine).join('\n'), NTFY_ALERT_LIMIT);
}

/** Where a click on the notification goes: the first alert's link, or the status page. */
function clickUrl(alerts: readonly NotifiedAlert[], externalURL: string): string | undefined {
  return [alerts[0]?.generatorURL ?? '', externalURL].find((u) => /^https?:\/\//.test(u));
}

/** The group as ntfy messages, in order, each body under NTFY_MESSAGE_LIMIT bytes and each JSON body under NTFY_JSON_LIMIT. */
export function ntfyMessages(n: Notification, topic: string): NtfyMessage[] {
  const page = /^https?:\/\//.test(n.externalURL) ? ` (see ${n.externalURL})` : '';
  const note = n.truncatedAlerts > 0 ? `${leftOut(n.truncatedAlerts)}${page}` : '';
  const numbering = n.alerts.length > 1 ? ` ${partLabel(PART_LABELS.ntfy, n.alerts.length, n.alerts.length)}`.length : 0;
  const title = fit(headline(n), TITLE_LIMIT - numbering);
  const exchange = n.commonLabels.exchange ? fit(oneLine(n.commonLabels.exchange), TAG_LIMIT) : '';
  const tags = [MARK_TAGS[groupMark(n)] ?? 'white_circle', ...(exchange !== '' ? [exchange] : [])];
  const priority = ntfyPriority(n);
  // The rest of a message's JSON at its longest (numbered, with the longest click), and the note's room.
  const clicks = [n.externalURL, ...n.alerts.map((a) => a.generatorURL ?? '')].filter((u) => /^https?:\/\//.test(u));
  const click = clicks.reduce((a, b) => (jsonBytes(b) > jsonBytes(a) ? b : a), '');
  const envelope = jsonBytes({ topic, title: `${title}${' '.repeat(numbering)}`, message: '', tags, priority, ...(click !== '' && { click }) });
  const budget = BODY_LIMIT - (note === '' ? 0 : utf8Bytes(note) + 2);
  const encodedBudget = NTFY_JSON_LIMIT - envelope - (note === '' ? 0 : encodedBytes(note) + encodedBytes('\n\n'));
  const texts = n.alerts.map(alertText);
  const runs: NotifiedAlert[][] = [];
  const bodies: string[] = [];
  let from = 0;
  for (const count of packParts([
    { sizes: texts.map(utf8Bytes), budget, separator: utf8Bytes('\n\n') },
    { sizes: texts.map(encodedBytes), budget: encodedBudget, separator: encodedBytes('\n\n') },
  ])) {
    runs.push(n.alerts.slice(from, from + count));
    bodies.push(texts.slice(from, from + count).join('\n\n'));
    from += count;
  }
  if (note !== '') bodies[bodies.length - 1] = bodies.at(-1) === '' ? note : `${bodies.at(-1)}\n\n${note}`;
  return runs.map((alerts, i) => {
    const click = clickUrl(alerts, n.externalURL);
    return {
      topic,
      title: runs.length > 1 ? `${title} ${partLabel(PART_LABELS.ntfy, i + 1, runs.length)}` : title,
      message: bodies[i] === '' ? title : bodies[i]!,
      tags,
      priority,
      ...(click !== undefined && { click }),
    };
  });
}

/** Bytes of a value as JSON (UTF-8). */
function jsonBytes(value: unknown): number {
  return utf8Bytes(JSON.stringify(value));
}

/** Bytes of a text inside a JSON string: quotes, backslashes and control characters take two or more. */
function encodedBytes(text: string): number {
  return jsonBytes(text) - 2;
}
