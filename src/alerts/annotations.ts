import type { Instance } from '../rules/evaluate';
import type { Rule } from '../rules/model';
import { render, type TemplateFields } from '../lib/template';

/** Defaults that read well in an e-mail subject or a chat message, per kind of condition. */
const DEFAULT_SUMMARY: Record<string, string> = {
  deposit_disabled: '{{coin}} deposits disabled on {{network}} ({{exchange}})',
  withdraw_disabled: '{{coin}} withdrawals disabled on {{network}} ({{exchange}})',
  deposit_desc_present: '{{coin}} deposit message on {{network}} ({{exchange}}): {{deposit_desc}}',
  withdraw_desc_present: '{{coin}} withdrawal message on {{network}} ({{exchange}}): {{withdraw_desc}}',
  deposit_all_disabled: '{{coin}} deposits not open on every network ({{exchange}})',
  withdraw_all_disabled: '{{coin}} withdrawals not open on every network ({{exchange}})',
  change_24h_percent: '{{symbol}} moved {{value}} % in 24 h ({{exchange}})',
  move_percent: '{{symbol}} moved {{value}} % within {{window}} ({{exchange}})',
  spread_bps: '{{symbol}} spread is {{value}} bps ({{exchange}})',
  last_price: '{{symbol}} last price {{last_price}} crossed {{threshold}} ({{exchange}})',
  volume: '{{symbol}} 24 h volume {{volume}} beyond {{threshold}} ({{exchange}})',
  quote_volume: '{{symbol}} 24 h quote volume {{quote_volume}} beyond {{threshold}} ({{exchange}})',
  stale_for: '{{symbol}} ticker has not changed for {{value}} s ({{exchange}})',
  missing: '{{symbol}} is missing from the ticker answer ({{exchange}})',
  transfer: '{{coin}} cannot move from {{exchange}} to {{to_exchange}}: no chain is open at both ends',
  upstream_anomaly: '{{exchange}} {{endpoint}} answer shrank from {{before}} to {{after}}: held as suspect',
  exchange_down: '{{exchange}} {{endpoint}} polls failing: {{error}}',
  // Notices (notices.md section 4): the summary is made with the notice's own words.
  maintenance: '{{summary}}',
  exchange_status: '{{summary}}',
  announcement: '{{summary}}',
};

/** Annotations a notice alert carries besides summary and description (notices.md section 4). */
const NOTICE_ANNOTATIONS: Record<string, readonly string[]> = {
  maintenance: ['title', 'url', 'begins', 'ends'],
  announcement: ['title', 'url', 'coins', 'published'],
};
/** "USDT on Tron(TRC20): withdraw desc set (main)". */
function changeSummary(f: TemplateFields): string {
  const subject = f.coin ? `${String(f.coin)}${f.network ? ` on ${String(f.network)}` : ''}` : String(f.symbol ?? '');
  return `${subject}: ${String(f.kind ?? '').replace(/_/g, ' ')} (${String(f.exchange ?? '')})`;
}

/** Descriptions of a kind of their own; the others are made from the fields (see description). */
const DEFAULT_DESCRIPTION: Record<string, string> = {
  transfer: '{{route}}',
};

function description(kind: string, fields: TemplateFields): string {
  const own = DEFAULT_DESCRIPTION[kind];
  if (own !== undefined) return render(own, fields);
  if (fields.before !== undefined || fields.after !== undefined) {
    return `${kind.replace(/_/g, ' ')}: ${show(fields.before)} -> ${show(fields.after)}`;
  }
  const msg = kind.startsWith('deposit') ? fields.deposit_desc : kind.startsWith('withdraw') ? fields.withdraw_desc : undefined;
  if (msg !== undefined) return msg === null ? 'No message from the exchange.' : `Exchange message: ${String(msg)}`;
  if (fields.threshold !== undefined && fields.value !== undefined) return `${kind} is ${String(fields.value)} (threshold ${String(fields.threshold)})`;
  return '';
}

function show(v: unknown): string {
  return v === null || v === undefined ? '(none)' : String(v);
}

/**
 * The annotations of an alert: the rule's templates over the alert's fields, with defaults
 * for summary and description, and the current deposit/withdraw messages where they apply.
 */
export function annotate(rule: Rule, instance: Instance): Record<string, string> {
  const f = instance.fields;
  const kind = String(f.kind ?? '');
  const out: Record<string, string> = {
    summary: (rule.condition.type === 'change' ? changeSummary(f) : render(DEFAULT_SUMMARY[kind] ?? '{{alertname}}', { ...f, alertname: rule.alert })).replace(/\s+/g, ' ').trim(),
    description: description(kind, f),
  };
  if (typeof f.deposit_desc === 'string') out.deposit_desc = f.deposit_desc;
  if (typeof f.withdraw_desc === 'string') out.withdraw_desc = f.withdraw_desc;
  for (const k of NOTICE_ANNOTATIONS[kind] ?? []) out[k] = String(f[k] ?? '');
  // A closure alert says which notice explains it, or `none` (notices.md section 3).
  if (typeof f.notice === 'string') out.notice = f.notice;
  const fields = { ...f, alertname: rule.alert, severity: rule.severity };
  for (const [k, t] of Object.entries(rule.annotations)) out[k] = render(t, fields);
  return out;
}
