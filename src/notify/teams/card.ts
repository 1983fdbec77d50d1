/**
 * A group as Microsoft Teams messages for a Workflows webhook ("Post to a channel when a webhook
 * request is received"): a `message` activity with one Adaptive Card attachment (version 1.5, the
 * highest Teams renders): a TextBlock title, a FactSet with a fact per alert, and an
 * Action.OpenUrl to the status page. The retired Office 365 connector format (MessageCard) is not
 * used. Teams refuses messages beyond about 28 KB: a group whose card would be larger is split in
 * order into several cards each within TEAMS_BODY_LIMIT, so that no alert of a storm is lost.
 * Upstream text is made inert for the card's markdown (escapeTeams).
 */
import { alertFields, alertMark, alertSummary, fit, groupFields, groupMark, headline, leftOut, place, renderEscaped, since, upstreamMessage } from '../kit/chat-text';
import type { ChatTemplates } from '../kit/chat-webhook';
import { arrayRunsWithin, partLabel, PART_LABELS, utf8Bytes } from '../kit/parts';
import type { Notification, NotifiedAlert } from '../notifier';
import { oneLine } from '../kit/text';

/**
 * The most bytes of JSON one post carries: under Teams' documented ~28 KB message limit, with
 * room for what Teams adds around the card (the limit is on the message as Teams stores it).
 */
export const TEAMS_BODY_LIMIT = 24_000;

/** Text at most (characters), so that any alert fits a card alone, and a long one does not fill it. */
export const TEAMS_TEXT_LIMITS = { factTitle: 400, factValue: 2000, title: 1000 } as const;

export const ADAPTIVE_CARD_VERSION = '1.5';
export const ADAPTIVE_CARD_SCHEMA = 'http://adaptivecards.io/schemas/adaptive-card.json';
export const ADAPTIVE_CARD_TYPE = 'application/vnd.microsoft.card.adaptive';

export interface TeamsFact {
  title: string;
  value: string;
}

export type TeamsElement =
  | { type: 'TextBlock'; text: string; wrap: true; weight?: 'Bolder'; size?: 'Medium'; isSubtle?: true }
  | { type: 'FactSet'; facts: TeamsFact[] };

export interface TeamsCard {
  $schema: string;
  type: 'AdaptiveCard';
  version: string;
  body: TeamsElement[];
  actions?: { type: 'Action.OpenUrl'; title: string; url: string }[];
  msteams: { width: 'Full' };
}

export interface TeamsMessage {
  type: 'message';
  attachments: [{ contentType: typeof ADAPTIVE_CARD_TYPE; contentUrl: null; content: TeamsCard }];
}

/**
 * Upstream text as the card's markdown shows it literally, on one line, with as few escapes as
 * that takes: Teams' mobile clients have shown backslash escapes as they are (`Tron\(TRC20\)`),
 * so only what could form markup is escaped. A TextBlock's markdown in Teams takes no HTML, and a
 * parenthesis makes no link without brackets, so `(`, `)`, `<` and `>` mostly stay as written. Escaped with a
 * backslash: `*`, `_`, `~`, `` ` ``, a backslash that would escape what follows it, and a
 * heading, list, rule or quote marker at the start (`# `, `- `, `+ `, `1. `, `---`, `>`).
 * Broken with a zero-width space: between `]` and `(`, the only place brackets make a link
 * (`[click](http://...)`, `![x](...)`), so `[FIRING:1]` stays as written; after a `<` that could
 * open an autolink (`<http://...>`) or a mention tag (`<at>`), which Teams would otherwise read as
 * one; and after the first brace, Adaptive Cards' date functions (`{{DATE(...)}}`, `{{TIME(...)}}`).
 */
export function escapeTeams(text: string): string {
  return oneLine(text)
    .replace(/\\(?=[!-/:-@[-`{-~]|$)|[*_~`]/g, '\\$&')
    .replace(/<(?=[^\s<>]*(?:>|$))/g, '<\u200b')
    .replace(/\](?=[(:])/g, ']\u200b')
    .replace(/^(\s*)(#{1,6}(?=\s|$)|[-+](?=\s|$)|-(?=-+\s*$)|\d{1,9}[.)](?=\s|$)|>)/, (_m, space: string, marker: string) =>
      `${space}${/^\d/.test(marker) ? `${marker.slice(0, -1)}\\${marker.slice(-1)}` : `\\${marker}`}`)
    .replace(/\{\{/g, '{\u200b{');
}

/** A cut that ends in half an escape would escape what follows it. */
function tidy(cut: string): string {
  const backslashes = /\\+$/.exec(cut)?.[0].length ?? 0;
  return backslashes % 2 === 1 ? cut.slice(0, -1) : cut;
}

function cutTo(text: string, max: number): string {
  return fit(text, max, tidy);
}

/**
 * The fact of an alert: its mark and summary, then where, since when, and the exchange's own
 * message (or the alert template's text over the alert's fields).
 */
export function alertFact(group: Readonly<Record<string, string | number>>, a: NotifiedAlert, template?: string): TeamsFact {
  const said = upstreamMessage(a) ?? a.annotations.description;
  const value = template !== undefined
    ? renderEscaped(template, alertFields(group, a), escapeTeams)
    : [`${escapeTeams(place(a))} · ${since(a)}`, ...(said ? [escapeTeams(said)] : [])].join(' — ');
  return {
    title: cutTo(`${alertMark(a)} ${a.status === 'resolved' ? 'Resolved: ' : ''}${escapeTeams(alertSummary(a))}`, TEAMS_TEXT_LIMITS.factTitle),
    value: cutTo(value, TEAMS_TEXT_LIMITS.factValue),
  };
}

function message(card: TeamsCard): TeamsMessage {
  return { type: 'message', attachments: [{ contentType: ADAPTIVE_CARD_TYPE, contentUrl: null, content: card }] };
}

function card(title: string, facts: TeamsFact[], note: string | undefined, statusPage: string | undefined): TeamsCard {
  return {
    $schema: ADAPTIVE_CARD_SCHEMA,
    type: 'AdaptiveCard',
    version: ADAPTIVE_CARD_VERSION,
    body: [
      { type: 'TextBlock', text: title, wrap: true, weight: 'Bolder', size: 'Medium' },
      { type: 'FactSet', facts },
      ...(note !== undefined ? [{ type: 'TextBlock' as const, text: note, wrap: true as const, isSubtle: true as const }] : []),
    ],
    ...(statusPage !== undefined && { actions: [{ type: 'Action.OpenUrl' as const, title: 'Open spotwatch', url: statusPage }] }),
    msteams: { width: 'Full' },
  };
}

/**
 * The group as one or more messages, in order, each within `limit` bytes of JSON: a card's
 * facts are the group's alerts, and a group too large for one card goes on in the next, its
 * title saying which part it is (`(part 2 of 3)`). Alerts the notification already left out
 * (`truncatedAlerts`) are counted in the last card.
 */
export function teamsMessages(n: Notification, templates: ChatTemplates = {}, limit = TEAMS_BODY_LIMIT): TeamsMessage[] {
  const group = groupFields(n);
  const title = cutTo(templates.text !== undefined ? renderEscaped(templates.text, group, escapeTeams) : `${groupMark(n)} ${escapeTeams(headline(n))}`, TEAMS_TEXT_LIMITS.title);
  const statusPage = /^https?:\/\//.test(n.externalURL) ? new URL(n.externalURL).href : undefined;
  const note = n.truncatedAlerts > 0 ? leftOut(n.truncatedAlerts) : undefined;
  const facts = n.alerts.map((a) => alertFact(group, a, templates.alert));
  // What a card costs besides its facts: measured with the longest part label it could carry.
  const widest = ` ${partLabel(PART_LABELS.teams, facts.length, facts.length)}`;
  const frame = utf8Bytes(JSON.stringify(message(card(`${title}${widest}`, [], note, statusPage))));
  const runs = arrayRunsWithin(facts.map((f) => utf8Bytes(JSON.stringify(f))), limit - frame + 2);
  const out: TeamsMessage[] = [];
  let from = 0;
  runs.forEach((count, i) => {
    const part = runs.length > 1 ? ` ${partLabel(PART_LABELS.teams, i + 1, runs.length)}` : '';
    out.push(message(card(`${title}${part}`, facts.slice(from, from + count), i === runs.length - 1 ? note : undefined, statusPage)));
    from += count;
  });
  return out;
}
