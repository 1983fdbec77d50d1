/**
 * A group as Matrix `m.room.message` events (`m.text` by default, which the default push rules
 * push to phones; `m.notice`, which `.m.rule.suppress_notices` never pushes, when the config
 * asks): a plain `body` and an `org.matrix.custom.html` `formatted_body` with every value
 * HTML-escaped, and `"m.mentions": {}` so that nothing in it (`@room`, a user id) notifies anyone
 * (the spec's intentional mentions: with the property present, only what it lists is a mention).
 * A homeserver refuses an event over 65,536 bytes (its envelope included): a group too large for
 * one event is split into several, every alert in one of them, none left out; every text of an
 * alert is cut (MATRIX_TEXT_LIMITS) so that any alert fits an event alone.
 */
import { alertMark, alertSummary, fit, groupMark, headline, place, since, upstreamMessage } from '../kit/chat-text';
import { packParts, partLabel, PART_LABELS, utf8Bytes } from '../kit/parts';
import type { Notification, NotifiedAlert } from '../notifier';
import { escapeHtml } from '../kit/text';

/** The spec's limit on a whole event, in bytes of its JSON. */
export const MATRIX_EVENT_LIMIT = 65_536;
/** What the content may take of it: the rest is the envelope the homeserver adds (ids, sender, signatures, hashes). */
export const MATRIX_CONTENT_BUDGET = 60_000;
/**
 * Text at most (UTF-16 units), cut before escaping, so that an alert always fits an event and a
 * long one does not fill it: the group's headline, an alert's summary, its place (from its
 * labels), and the exchange's message. Escaped for HTML and JSON, an alert takes at most about
 * 12 bytes a unit (`&quot;` in both texts): some 42,000 bytes, under MATRIX_CONTENT_BUDGET with
 * the headline's.
 */
export const MATRIX_TEXT_LIMITS = { headline: 1_000, summary: 1_000, place: 500, message: 2_000 } as const;

export type MatrixMsgtypeName = 'm.text' | 'm.notice';

export interface MatrixContent {
  msgtype: MatrixMsgtypeName;
  body: string;
  format: 'org.matrix.custom.html';
  formatted_body: string;
  'm.mentions': Record<string, never>;
}

/** Bytes a text takes inside a JSON string (escapes counted). */
function jsonBytes(text: string): number {
  return utf8Bytes(JSON.stringify(text)) - 2;
}

interface Piece {
  text: string;
  html: string;
}

function alertPiece(a: NotifiedAlert): Piece {
  const title = `${alertMark(a)} ${a.status === 'resolved' ? 'Resolved: ' : ''}${fit(alertSummary(a), MATRIX_TEXT_LIMITS.summary)}`;
  const where = `${fit(place(a), MATRIX_TEXT_LIMITS.place)} · ${since(a)}`;
  const message = upstreamMessage(a);
  const said = message === undefined ? undefined : fit(message, MATRIX_TEXT_LIMITS.message);
  const link = /^https?:\/\//.test(a.generatorURL) ? a.generatorURL : undefined;
  return {
    text: `\n${title}\n${where}${said !== undefined ? `\n> ${said}` : ''}`,
    html: `<p>${link !== undefined ? `<a href="${escapeHtml(link)}">${escapeHtml(title)}</a>` : escapeHtml(title)}<br>${escapeHtml(where)}</p>`
      + (said !== undefined ? `<blockquote>${escapeHtml(said)}</blockquote>` : ''),
  };
}

function header(n: Notification, part: number, parts: number): Piece {
  const line = `${groupMark(n)} ${fit(headline(n), MATRIX_TEXT_LIMITS.headline)}${parts > 1 ? ` ${partLabel(PART_LABELS.matrix, part, parts)}` : ''}`;
  return { text: line, html: `<p><strong>${escapeHtml(line)}</strong></p>` };
}

function footer(n: Notification): Piece {
  const more = n.truncatedAlerts > 0 ? `${n.truncatedAlerts} more alert${n.truncatedAlerts === 1 ? '' : 's'} not sent` : '';
  const url = /^https?:\/\//.test(n.externalURL) ? n.externalURL : '';
  if (more === '' && url === '') return { text: '', html: '' };
  const text = [more, url].filter(Boolean).join(' · ');
  const html = [escapeHtml(more), url !== '' ? `<a href="${escapeHtml(url)}">status page</a>` : ''].filter(Boolean).join(' · ');
  return { text: `\n${text}`, html: `<p>${html}</p>` };
}

function content(msgtype: MatrixMsgtypeName, pieces: readonly Piece[]): MatrixContent {
  return {
    msgtype,
    body: pieces.map((p) => p.text).join(''),
    format: 'org.matrix.custom.html',
    formatted_body: pieces.map((p) => p.html).join(''),
    'm.mentions': {},
  };
}

function size(p: Piece): number {
  return jsonBytes(p.text) + jsonBytes(p.html);
}

/**
 * The group's events, in order: as many alerts in each as fit MATRIX_CONTENT_BUDGET bytes, the
 * headline on every one (`(2/3)` when there are several), the status page on the last.
 */
export function matrixMessages(n: Notification, msgtype: MatrixMsgtypeName = 'm.text'): MatrixContent[] {
  const pieces = n.alerts.map(alertPiece);
  const end = footer(n);
  const fixed = utf8Bytes(JSON.stringify(content(msgtype, [header(n, 99_999, 99_999), end])));
  const runs: Piece[][] = [];
  let from = 0;
  for (const count of packParts([{ sizes: pieces.map(size), budget: MATRIX_CONTENT_BUDGET, frame: fixed }])) {
    runs.push(pieces.slice(from, from + count));
    from += count;
  }
  return runs.map((run, i) => content(msgtype, [header(n, i + 1, runs.length), ...run, ...(i === runs.length - 1 ? [end] : [])]));
}
