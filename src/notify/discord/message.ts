/**
 * A group as one Discord message (Execute Webhook's JSON body): the headline as `content`, an
 * embed per alert (colour by severity, fields for coin, network, chain, symbol and the exchange's
 * message), within Discord's documented limits, saying how many alerts it had no room for.
 * Upstream text is made inert: markdown escaped, `@everyone` / `@here` broken, and
 * `allowed_mentions: { parse: [] }` so that nothing in it can ever ping anyone.
 */
import { alertFacts, alertFields, alertMark, alertSummary, fairShares, fit, groupFields, groupMark, headline, leftOut, renderEscaped, upstreamMessage } from '../kit/chat-text';
import type { ChatTemplates } from '../kit/chat-webhook';
import type { Notification, NotifiedAlert } from '../notifier';
import { alertLevel, SEVERITY_SCALES } from '../kit/severity';
import { oneLine } from '../kit/text';

/** Discord's documented limits, in characters (embed limits: after trimming whitespace). */
export const DISCORD_LIMITS = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  /** The sum of every embed's title, description, field names and values, footer and author. */
  total: 6000,
} as const;


export interface DiscordField {
  name: string;
  value: string;
  inline: boolean;
}

export interface DiscordEmbed {
  title: string;
  url?: string;
  description?: string;
  color: number;
  fields: DiscordField[];
  footer: { text: string };
  timestamp: string;
}

export interface DiscordMessage {
  content: string;
  embeds: DiscordEmbed[];
  allowed_mentions: { parse: [] };
}

/**
 * Upstream text made inert in Discord's markdown: special characters escaped with Discord's own
 * backslash (no bold, links, spoilers, `<@123>` or `<#channel>` forms), a heading, list or quote
 * marker at the start too, and `@everyone` / `@here` broken with a zero-width space.
 */
export function escapeDiscord(text: string): string {
  return oneLine(text)
    .replace(/[\\*_~`|<>[\]]/g, '\\$&')
    .replace(/^(\s*)(#|-|\d+\.)/, (_m, space: string, marker: string) => `${space}${marker.replace(/[#.-]$/, '\\$&')}`)
    .replace(/@(everyone|here)/gi, '@\u200b$1');
}

/** A cut that ends in half an escape would escape what follows it. */
function tidy(cut: string): string {
  const backslashes = /\\+$/.exec(cut)?.[0].length ?? 0;
  return backslashes % 2 === 1 ? cut.slice(0, -1) : cut;
}

function cutTo(text: string, max: number): string {
  return fit(text, max, tidy);
}

/** What Discord counts towards the 6,000 characters of a message's embeds. */
export function embedSize(e: DiscordEmbed): number {
  return e.title.trim().length + (e.description?.trim().length ?? 0) + e.footer.text.trim().length
    + e.fields.reduce((n, f) => n + f.name.trim().length + f.value.trim().length, 0);
}

export function discordMessage(n: Notification, templates: ChatTemplates = {}): DiscordMessage {
  const group = groupFields(n);
  const full = n.alerts.slice(0, DISCORD_LIMITS.embeds).map((a) => embedOf(group, a, templates.alert));
  // The embeds share the total, so that ten alerts with long messages all show.
  const budgets = fairShares(full.map(embedSize), DISCORD_LIMITS.total);
  const embeds = full.map((e, i) => shrink(e, budgets[i] ?? 0));
  const left = n.alerts.length - embeds.length + n.truncatedAlerts;
  const text = templates.text !== undefined ? renderEscaped(templates.text, group, escapeDiscord) : `${groupMark(n)} **${escapeDiscord(headline(n))}**`;
  const note = left > 0 ? `\n${leftOut(left)}${statusPage(n.externalURL)}` : '';
  return { content: `${cutTo(text, DISCORD_LIMITS.content - note.length)}${note}`, embeds, allowed_mentions: { parse: [] } };
}

/** ` (see <http://...>)`: angle brackets keep Discord from unfurling the link into another embed. */
function statusPage(url: string): string {
  return /^https?:\/\//.test(url) ? ` (see <${new URL(url).href}>)` : '';
}

function embedOf(group: Readonly<Record<string, string | number>>, a: NotifiedAlert, template: string | undefined): DiscordEmbed {
  const message = upstreamMessage(a);
  const { exchange, severity } = a.labels;
  const fields = [...alertFacts(a), ...(message !== undefined ? [{ name: 'Message', value: message }] : [])]
    .map(({ name, value }) => ({ name, value: cutTo(escapeDiscord(value), DISCORD_LIMITS.fieldValue), inline: name !== 'Message' }))
    .filter((f) => f.value.trim() !== '');
  // The description: the template's, or the rule's own words when the exchange said nothing (they would repeat it).
  const description = template !== undefined
    ? renderEscaped(template, alertFields(group, a), escapeDiscord)
    : message === undefined ? escapeDiscord(a.annotations.description ?? '') : '';
  const title = `${alertMark(a)} ${a.status === 'resolved' ? 'Resolved: ' : ''}${escapeDiscord(alertSummary(a))}`;
  return {
    title: cutTo(title, DISCORD_LIMITS.title),
    ...(/^https?:\/\//.test(a.generatorURL) && { url: a.generatorURL }),
    ...(description.trim() !== '' && { description: cutTo(description, DISCORD_LIMITS.description) }),
    color: alertLevel(SEVERITY_SCALES.discordColour, a),
    fields: fields.slice(0, DISCORD_LIMITS.fields),
    footer: { text: cutTo(escapeDiscord([exchange, severity, a.status].filter(Boolean).join(' · ')), DISCORD_LIMITS.footer) },
    timestamp: a.status === 'resolved' ? a.endsAt : a.startsAt,
  };
}

/**
 * The embed within `budget` characters. What gives way first: the description, then the
 * exchange's message and the other fields, then the title and the footer; a part cut to nothing goes.
 */
function shrink(embed: DiscordEmbed, budget: number): DiscordEmbed {
  const e: DiscordEmbed = { ...embed, fields: embed.fields.map((f) => ({ ...f })) };
  const parts: [get: () => string, set: (text: string) => void][] = [
    [() => e.description ?? '', (t) => { e.description = t; }],
    ...[...e.fields].reverse().map((f): [() => string, (t: string) => void] => [() => f.value, (t) => { f.value = t; }]),
    [() => e.title, (t) => { e.title = t; }],
    [() => e.footer.text, (t) => { e.footer = { text: t }; }],
  ];
  for (const [get, set] of parts) {
    const over = embedSize(e) - budget;
    if (over <= 0) break;
    const text = get();
    set(cutTo(text, Math.max(0, text.length - over)));
  }
  if (e.description?.trim() === '') delete e.description;
  e.fields = e.fields.filter((f) => f.value.trim() !== '');
  return e;
}
