/**
 * The rules over notices (notices.md section 4), evaluated on an exchange's notice book: a
 * window in a state (`maintenance`, `within` of its begin), the exchange's status
 * (`exchange_status`), and an event per announcement read after the baseline (`announcement`).
 * And the closures they explain (section 3): the `notice` field of a closure instance, and the
 * `unannounced` rules that hold only while nothing explains it. Pure.
 */
import { explain, noticeAnnotation } from '../notices/explain';
import type { NoticeBook } from '../notices/book';
import type { Announcement, Maintenance } from '../notices/model';
import { oneWindowEach } from '../notices/same-window';
import { baseLabels, type Instance } from './instance';
import { matchesAll } from './match';
import type { Rule } from './model';

const iso = (ms: number | null): string => (ms === null ? '' : new Date(ms).toISOString());

/** A state rule over deposit or withdraw flags: its alerts carry the `notice` annotation. */
export function closureRule(rule: Rule): boolean {
  const c = rule.condition;
  return c.type === 'state' && (c.state === 'deposit_disabled' || c.state === 'withdraw_disabled');
}

/** The instances of a maintenance or exchange_status rule that hold now. */
/** `windows`: the book's windows as one each (same-window.ts), merged once for a step's rules. */
export function noticeInstances(rule: Rule, exchange: string, book: NoticeBook, now: number, windows: () => readonly Maintenance[] = () => oneWindowEach(book.windows.values())): Instance[] {
  const c = rule.condition;
  if (!matchesAll(rule.match, { exchange })) return [];
  if (c.type === 'exchange_status') {
    const s = book.status;
    if (s === undefined || !c.states.includes(s.state)) return [];
    const fields = { exchange, kind: 'exchange_status', state: s.state, message: s.message, since: iso(s.since) };
    return [{ rule, entity: `${exchange}\u0000status`, labels: baseLabels(rule, exchange, {}), fields: { ...fields, summary: `${exchange} is in ${s.state.replace('_', ' ')}${s.message === null ? '' : `: ${s.message}`}` }, value: 1 }];
  }
  if (c.type !== 'maintenance') return [];
  const out: Instance[] = [];
  // One window seen through two sources is one alert (notices/same-window.ts).
  for (const w of windows()) {
    if (w.state !== c.state) continue;
    if (c.state === 'scheduled' && c.withinMs !== undefined && w.begins - now > c.withinMs) continue;
    out.push(windowInstance(rule, exchange, w));
  }
  return out;
}

function windowInstance(rule: Rule, exchange: string, w: Maintenance): Instance {
  const when = w.ends === null ? `from ${iso(w.begins)}` : `${iso(w.begins)} to ${iso(w.ends)}`;
  return {
    rule,
    entity: `${exchange}\u0000maintenance\u0000${w.source}\u0000${w.id}`,
    labels: baseLabels(rule, exchange, { maintenance: w.id }),
    fields: {
      exchange,
      kind: 'maintenance',
      summary: `${exchange} maintenance ${w.state === 'scheduled' ? 'scheduled' : 'under way'}: ${w.title} (${when})`,
      title: w.title,
      url: w.url ?? '',
      begins: iso(w.begins),
      ends: iso(w.ends),
      scope: w.scope,
      origin: w.origin,
    },
    value: 1,
  };
}

/** The events of an announcement rule: the announcements read after the baseline, of its kinds, whose named coins, symbols or chains match. */
export function announcementEvents(rule: Rule, exchange: string, published: readonly Announcement[], now: number): Instance[] {
  const c = rule.condition;
  if (c.type !== 'announcement') return [];
  return published
    .filter((a) => c.kinds.includes(a.kind) && announcementMatches(rule, exchange, a))
    .map((a) => ({
      rule,
      entity: `${exchange}\u0000announcement\u0000${a.id}`,
      labels: baseLabels(rule, exchange, { announcement: a.id }),
      fields: {
        exchange,
        kind: 'announcement',
        summary: `${exchange} announcement: ${a.title}`,
        title: a.title,
        url: a.url ?? '',
        coins: a.coins.join(', '),
        published: iso(a.published),
        at: now,
      },
      value: null,
    }));
}

/** A rule's match over an announcement: each matcher passes when some coin (symbol, chain) the notice names passes. */
function announcementMatches(rule: Rule, exchange: string, a: Announcement): boolean {
  const named: Record<string, readonly string[]> = { coin: a.coins, symbol: a.symbols, chain: a.chains, exchange: [exchange], kind: [a.kind] };
  return rule.match.every((m) => (named[m.label] ?? []).some((v) => m.test(v)));
}

/**
 * A closure rule's instances with their `notice` field (the explaining notice, or `none`); an
 * `unannounced` rule keeps only the closures nothing explains. `since` gives when an instance's
 * alert became active (undefined: it begins now).
 */
export function withNotices(rule: Rule, instances: readonly Instance[], book: NoticeBook, oneEach: () => readonly Maintenance[], chainOf: (network: string) => string | null, since: (entity: string) => number | undefined, now: number, explainsForMs: number): Instance[] {
  if (!closureRule(rule)) return [...instances];
  const unannounced = rule.condition.type === 'state' && rule.condition.unannounced === true;
  const out: Instance[] = [];
  const windows = instances.length === 0 ? [] : oneEach();
  for (const inst of instances) {
    const coin = String(inst.fields.coin ?? '');
    const network = String(inst.fields.network ?? '');
    const e = explain(book, { coin, chain: chainOf(network) ?? undefined, at: since(inst.entity) ?? now }, now, explainsForMs, windows);
    if (unannounced && e !== undefined) continue;
    out.push({ ...inst, fields: { ...inst.fields, notice: noticeAnnotation(e) } });
  }
  return out;
}
