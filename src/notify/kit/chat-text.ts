/**
 * What the chat receivers (Discord, Slack, PagerDuty; Telegram its marks) say of a group and of each alert, before
 * each escapes it for its target: the headline, the mark, where, since when, the exchange's own
 * message; the fields their templates see; and cutting text to a service's limit. Every value
 * that comes from an exchange is hostile: the receivers escape it (chat-text.ts never does).
 */
import { render } from '../../lib/template';
import type { Notification, NotifiedAlert } from '../notifier';
import { alertLevel, groupLevel, SEVERITY_SCALES } from './severity';
import { notificationFields, oneLine } from './text';

/** The mark of a resolved alert, and of a group none of whose alerts fires. */
export const RESOLVED_MARK = SEVERITY_SCALES.mark.resolved;

/** The mark of an alert: its severity's (severity.ts), or that it resolved. */
export function alertMark(a: NotifiedAlert): string {
  return alertLevel(SEVERITY_SCALES.mark, a);
}

/** The mark of a group: its most severe firing alert's, or resolved when none fires. */
export function groupMark(n: Notification): string {
  return groupLevel(SEVERITY_SCALES.mark, n);
}

/** The group in one line, as Alertmanager's default title has it: `[FIRING:2] WithdrawDisabled main`. */
export function headline(n: Notification): string {
  const firing = n.alerts.filter((a) => a.status === 'firing').length;
  const state = n.status === 'firing' ? `[FIRING:${firing}]` : '[RESOLVED]';
  const alertname = n.groupLabels.alertname ?? n.commonLabels.alertname;
  const others = Object.entries(n.groupLabels).filter(([k]) => k !== 'alertname').map(([, v]) => v);
  return oneLine([state, alertname, ...others].filter((p) => p !== undefined && p !== '').join(' '));
}

/** What the alert is about, in words: its summary, or its name. */
export function alertSummary(a: NotifiedAlert): string {
  return oneLine(a.annotations.summary || a.labels.alertname || 'alert');
}

/** The exchange's own message on the network (withdrawals first: they are what desks wait for). */
export function upstreamMessage(a: NotifiedAlert): string | undefined {
  const msg = a.annotations.withdraw_desc || a.annotations.deposit_desc;
  return msg ? oneLine(msg) : undefined;
}

/** Where: `main · USDT · Tron(TRC20) · tron`, or `main · BTCUSDT`. */
export function place(a: NotifiedAlert): string {
  const { exchange, coin, network, chain, symbol } = a.labels;
  return oneLine([exchange, coin, network, chain, symbol].filter(Boolean).join(' · '));
}

/** What the alert is about, named: its coin, network, chain and symbol, those it has. */
export function alertFacts(a: NotifiedAlert): { name: string; value: string }[] {
  const { coin, network, chain, symbol } = a.labels;
  return ([['Coin', coin], ['Network', network], ['Chain', chain], ['Symbol', symbol]] as const)
    .flatMap(([name, value]) => (value ? [{ name, value: oneLine(value) }] : []));
}

/** RFC 3339 as people read it: `2026-01-02 03:04:05 UTC`. */
export function readableTime(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `since 2026-01-02 03:04:05 UTC`, or `resolved 2026-01-02 04:00:00 UTC`. */
export function since(a: NotifiedAlert): string {
  return a.status === 'resolved' ? `resolved ${readableTime(a.endsAt)}` : `since ${readableTime(a.startsAt)}`;
}

/** `3 more alerts not shown`: what a message says of the alerts it had no room for. */
export function leftOut(count: number): string {
  return `${count} more alert${count === 1 ? '' : 's'} not shown`;
}

/**
 * The fields a chat receiver's group template (`text_template`) sees: notify/kit/text.ts's (the
 * version 4 body's, flattened), plus `headline` and `mark`.
 */
export function groupFields(n: Notification): Record<string, string | number> {
  return { ...notificationFields(n), headline: headline(n), mark: groupMark(n) } as Record<string, string | number>;
}

/**
 * The fields an alert's template (`alert_template`, `summary_template`) sees: the group's, then
 * the alert's as the version 4 body names them (`status`, `labels.X`, `annotations.X`,
 * `startsAt`, `endsAt`, `generatorURL`, `fingerprint`), then `mark`, `summary`, `where`,
 * `message` (the exchange's) and `since`.
 */
export function alertFields(group: Readonly<Record<string, string | number>>, a: NotifiedAlert): Record<string, string | number> {
  const fields: Record<string, string | number> = { ...group, status: a.status, startsAt: a.startsAt, endsAt: a.endsAt, generatorURL: a.generatorURL, fingerprint: a.fingerprint };
  for (const [k, v] of Object.entries(a.labels)) fields[`labels.${k}`] = v;
  for (const [k, v] of Object.entries(a.annotations)) fields[`annotations.${k}`] = v;
  return { ...fields, mark: alertMark(a), summary: alertSummary(a), where: place(a), message: upstreamMessage(a) ?? '', since: since(a) };
}

/** Fields spotwatch makes itself (links, counts, hashes): not escaped, so that a link stays a link. */
const OWN_FIELDS = new Set(['externalURL', 'generatorURL', 'count', 'firing', 'resolved', 'fingerprint', 'mark']);

/** A template over these fields, every value that may come from an exchange on one line and escaped for the target. */
export function renderEscaped(template: string, fields: Readonly<Record<string, string | number>>, escape: (text: string) => string): string {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) values[k] = OWN_FIELDS.has(k) ? String(v) : escape(oneLine(String(v)));
  return render(template, values);
}

/** What marks text cut short. */
export const CUT = '…';

/**
 * `text` within `max` UTF-16 code units (never fewer than the characters a service counts): cut,
 * ending in CUT, never inside a surrogate pair, nor (`tidy` removes a broken end) inside one of
 * the target's escapes.
 */
export function fit(text: string, max: number, tidy: (cut: string) => string = (t) => t): string {
  if (text.length <= max) return text;
  if (max < CUT.length) return '';
  let cut = text.slice(0, max - CUT.length);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${tidy(cut)}${CUT}`;
}

/**
 * Budgets for parts that share `total` characters (a message's alerts): the smaller parts get
 * all they need, the larger share what is left equally, so that one long exchange message does
 * not crowd out the others, nor a short one waste room a long one could use.
 */
export function fairShares(sizes: readonly number[], total: number): number[] {
  const order = sizes.map((_, i) => i).sort((a, b) => (sizes[a] ?? 0) - (sizes[b] ?? 0));
  const shares = new Array<number>(sizes.length).fill(0);
  let left = total;
  order.forEach((i, k) => {
    const share = Math.min(sizes[i] ?? 0, Math.floor(left / (order.length - k)));
    shares[i] = share;
    left -= share;
  });
  return shares;
}
