/**
 * A group as one Slack message (an incoming webhook's JSON body): `text`, the fallback that
 * notifications show, and `blocks`: a header, a section per alert, and a context line with the
 * status page and how many alerts had no room, within Slack's documented limits. Upstream text is
 * escaped as mrkdwn requires (`&`, `<`, `>`), so it can form no link, mention or `<!channel>`.
 */
import { alertFields, alertMark, alertSummary, fairShares, fit, groupFields, groupMark, headline, leftOut, place, renderEscaped, since, upstreamMessage } from '../kit/chat-text';
import type { ChatTemplates } from '../kit/chat-webhook';
import type { Notification, NotifiedAlert } from '../notifier';
import { oneLine } from '../kit/text';

/** Slack's documented limits, in characters. */
export const SLACK_LIMITS = {
  blocks: 50,
  /** A section's text. */
  section: 3000,
  /** A header's plain text. */
  header: 150,
  /** A text object in a context block. */
  context: 3000,
} as const;

/**
 * All sections' text together. Not one of Slack's documented limits, but messages whose blocks
 * hold much more than this have been refused (`msg_blocks_too_long`): a storm's alerts share it.
 */
export const SLACK_SECTIONS_BUDGET = 12_000;

/** The longest fallback `text` sent (Slack cuts a message's text at 40,000; a notification shows a line). */
const TEXT_LIMIT = 3000;

export interface SlackTextObject {
  type: 'plain_text' | 'mrkdwn';
  text: string;
  emoji?: boolean;
}

export type SlackBlock =
  | { type: 'header'; text: SlackTextObject }
  | { type: 'section'; text: SlackTextObject }
  | { type: 'context'; elements: SlackTextObject[] };

export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

/** Upstream text as mrkdwn shows it literally: `&`, `<` and `>` as Slack's entities, on one line. */
export function escapeSlack(text: string): string {
  return oneLine(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A cut that ends inside an entity (`&am`) would show as text: it goes. */
function tidy(cut: string): string {
  return cut.replace(/&(?:a|am|amp|l|lt|g|gt)?$/, '');
}

export function slackMessage(n: Notification, templates: ChatTemplates = {}): SlackMessage {
  const group = groupFields(n);
  // The header and the context line take two blocks; the rest is one section per alert.
  const shown = n.alerts.slice(0, SLACK_LIMITS.blocks - 2);
  const texts = shown.map((a) => sectionText(group, a, templates.alert));
  const budgets = fairShares(texts.map((t) => Math.min(t.length, SLACK_LIMITS.section)), SLACK_SECTIONS_BUDGET);
  const sections = texts.map((t, i): SlackBlock => ({ type: 'section', text: { type: 'mrkdwn', text: fit(t, budgets[i] ?? 0, tidy) } }));
  const left = n.alerts.length - shown.length + n.truncatedAlerts;
  const plain = templates.text !== undefined ? renderEscaped(templates.text, group, oneLine) : `${groupMark(n)} ${headline(n)}`;
  const text = templates.text !== undefined ? renderEscaped(templates.text, group, escapeSlack) : `${groupMark(n)} ${escapeSlack(headline(n))}`;
  const context = [...(left > 0 ? [leftOut(left)] : []), ...(/^https?:\/\//.test(n.externalURL) ? [`<${new URL(n.externalURL).href}|status page>`] : [])];
  return {
    text: fit(text, TEXT_LIMIT, tidy),
    blocks: [
      // plain_text shows its text as it is: nothing in it is a link or a mention.
      { type: 'header', text: { type: 'plain_text', text: fit(plain, SLACK_LIMITS.header), emoji: true } },
      ...sections,
      ...(context.length > 0 ? [{ type: 'context' as const, elements: [{ type: 'mrkdwn' as const, text: fit(context.join(' · '), SLACK_LIMITS.context, tidy) }] }] : []),
    ],
  };
}

/**
 * ```
 * 🔴 *USDT withdrawals disabled on Tron(TRC20) (main)*
 * main · USDT · Tron(TRC20) · tron · since 2026-01-02 03:04:05 UTC
 * > Wallet maintenance
 * ```
 */
function sectionText(group: Readonly<Record<string, string | number>>, a: NotifiedAlert, template: string | undefined): string {
  if (template !== undefined) return renderEscaped(template, alertFields(group, a), escapeSlack);
  const said = upstreamMessage(a) ?? a.annotations.description;
  return [
    `${alertMark(a)} *${a.status === 'resolved' ? 'Resolved: ' : ''}${escapeSlack(alertSummary(a))}*`,
    `${escapeSlack(place(a))} · ${since(a)}`,
    ...(said ? [`> ${escapeSlack(said)}`] : []),
  ].join('\n');
}
