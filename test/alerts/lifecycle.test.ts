import { fingerprint, type Alert } from '../../src/alerts/alert';
import { annotate } from '../../src/alerts/annotations';
import { ActiveAlerts, advance, type Scope } from '../../src/alerts/lifecycle';
import type { Instance } from '../../src/rules/evaluate';
import type { Rule } from '../../src/rules/model';
import { rulesFrom } from '../support/rules-harness';

/** One state rule W (for / keep_firing_for / repeat_interval as given) and an instance of it for network N. */
function ruleW(extra = ''): Rule {
  return rulesFrom(`rules:\n  - alert: W\n    state: withdraw_disabled\n${extra}`)[0] as Rule;
}

function instance(rule: Rule, network = 'N', value: number | null = null): Instance {
  const labels = { alertname: 'W', exchange: 'x', severity: rule.severity, coin: 'C', network };
  return { rule, entity: `x\u0000C\u0000${network}`, labels, fields: { coin: 'C', network, exchange: 'x', kind: 'withdraw_disabled' }, value };
}

function scope(rule: Rule, known: Rule[] = [rule]): Scope {
  return { exchange: 'x', rules: new Map([[rule.id, rule]]), known: new Set(known.map((r) => r.id)) };
}

/** The alert an earlier evaluation left for `inst`, in the given status. */
function active(inst: Instance, status: 'pending' | 'firing', at: number, lastNotifiedAt: number | null = status === 'firing' ? at : null): Alert {
  return {
    fingerprint: fingerprint(inst.labels),
    ruleId: inst.rule.id,
    entity: inst.entity,
    labels: inst.labels,
    annotations: annotate(inst.rule, inst),
    status,
    activeAt: at,
    startsAt: status === 'firing' ? at : null,
    endsAt: null,
    lastActiveAt: at,
    lastNotifiedAt,
    value: null,
    event: false,
  };
}

/** What advance decided, in words: each alert set (status), each removed, each told (status). */
function gist(prev: ActiveAlerts, r: ReturnType<typeof advance>): { set: string[]; removed: number; told: string[] } {
  return { set: r.set.map((a) => `${a.labels.network} ${a.status}`), removed: r.removed.length, told: r.notify.map((a) => `${a.labels.network} ${a.status}`) };
}

const MIN = 60_000;

describe('advance: the alert lifecycle as a table', () => {
  it.each([
    { name: 'new, no `for`: fires and is told', rule: '', prev: 'none', seen: true, now: 0, want: { set: ['N firing'], removed: 0, told: ['N firing'] } },
    { name: 'new, `for: 5m`: pending, not told', rule: '    for: 5m\n', prev: 'none', seen: true, now: 0, want: { set: ['N pending'], removed: 0, told: [] } },
    { name: 'pending, `for` not yet over: no write, nothing told', rule: '    for: 5m\n', prev: 'pending@0', seen: true, now: 4 * MIN, want: { set: [], removed: 0, told: [] } },
    { name: 'pending, `for` over: fires and is told', rule: '    for: 5m\n', prev: 'pending@0', seen: true, now: 5 * MIN, want: { set: ['N firing'], removed: 0, told: ['N firing'] } },
    { name: 'pending, gone before `for`: removed silently', rule: '    for: 5m\n', prev: 'pending@0', seen: false, now: MIN, want: { set: [], removed: 1, told: [] } },
    { name: 'firing, still true: nothing to write or tell', rule: '', prev: 'firing@0', seen: true, now: MIN, want: { set: [], removed: 0, told: [] } },
    { name: 'firing, gone: resolved and told', rule: '', prev: 'firing@0', seen: false, now: MIN, want: { set: [], removed: 1, told: ['N resolved'] } },
    { name: 'firing, gone within keep_firing_for: kept, not told', rule: '    keep_firing_for: 10m\n', prev: 'firing@0', seen: false, now: 5 * MIN, want: { set: [], removed: 0, told: [] } },
    { name: 'firing, gone past keep_firing_for: resolved', rule: '    keep_firing_for: 10m\n', prev: 'firing@0', seen: false, now: 10 * MIN, want: { set: [], removed: 1, told: ['N resolved'] } },
    { name: 'firing, repeat_interval due: told again', rule: '    repeat_interval: 1h\n', prev: 'firing@0', seen: true, now: 60 * MIN, want: { set: ['N firing'], removed: 0, told: ['N firing'] } },
    { name: 'firing, repeat_interval not due: quiet', rule: '    repeat_interval: 1h\n', prev: 'firing@0', seen: true, now: 59 * MIN, want: { set: [], removed: 0, told: [] } },
  ])('$name', ({ rule: extra, prev: before, seen, now, want }) => {
    const rule = ruleW(extra);
    const inst = instance(rule);
    const prev = new ActiveAlerts();
    if (before !== 'none') {
      const [status, at] = before.split('@') as ['pending' | 'firing', string];
      prev.apply({ set: [active(inst, status, Number(at))], removed: [] });
    }
    const r = advance(prev, { active: seen ? [inst] : [], events: [] }, scope(rule), now);
    expect(gist(prev, r)).toEqual(want);
  });

  it('resolves the alerts of a rule that no longer exists, and leaves other exchanges and rules alone', () => {
    const rule = ruleW();
    const other = rulesFrom('rules:\n  - alert: V\n    state: deposit_disabled\n')[0] as Rule;
    const prev = new ActiveAlerts([active(instance(rule, 'A'), 'firing', 0), { ...active(instance(other, 'B'), 'firing', 0) }, { ...active(instance(rule, 'C'), 'firing', 0), labels: { ...instance(rule, 'C').labels, exchange: 'y' }, fingerprint: 'y-c' }]);
    // Rule W is gone (not known); V is known but not evaluated this time; C belongs to exchange y.
    const r = advance(prev, { active: [], events: [] }, { exchange: 'x', rules: new Map(), known: new Set([other.id]) }, MIN);
    expect(gist(prev, r)).toEqual({ set: [], removed: 1, told: ['A resolved'] });
  });

  it('judged in parts: nothing resolves before the last part, which knows what earlier parts saw', () => {
    const rule = ruleW();
    const [a, b] = [instance(rule, 'A'), instance(rule, 'B')];
    const prev = new ActiveAlerts([active(a, 'firing', 0), active(b, 'firing', 0)]);
    const first = advance(prev, { active: [a], events: [] }, scope(rule), MIN, { resolve: false });
    expect(gist(prev, first)).toEqual({ set: [], removed: 0, told: [] });
    const last = advance(prev, { active: [], events: [] }, scope(rule), MIN, { alsoSeen: first.seen });
    expect(gist(prev, last)).toEqual({ set: [], removed: 1, told: ['B resolved'] });
    prev.apply(last);
    expect([...prev.values()].map((x) => x.labels.network)).toEqual(['A']);
    expect({ a: prev.isActive(rule.id, a.entity), b: prev.isActive(rule.id, b.entity) }).toEqual({ a: true, b: false });
  });
});

describe('ActiveAlerts: the indexes it keeps as alerts come, change and go', () => {
  /** Every alert by walking them all: what the indexes must always equal. */
  function walked(alerts: ActiveAlerts): { firing: Record<string, number>; byExchange: Record<string, string[]> } {
    const firing: Record<string, number> = {};
    const byExchange: Record<string, string[]> = {};
    for (const a of alerts.values()) {
      if (a.status === 'firing') firing[`${a.labels.alertname} ${a.labels.severity}`] = (firing[`${a.labels.alertname} ${a.labels.severity}`] ?? 0) + 1;
      (byExchange[a.labels.exchange ?? ''] ??= []).push(a.labels.network ?? '');
    }
    return { firing, byExchange };
  }

  function indexed(alerts: ActiveAlerts, exchanges: string[]): { firing: Record<string, number>; byExchange: Record<string, string[]> } {
    const firing: Record<string, number> = {};
    for (const f of alerts.firing()) if (f.n !== 0) firing[`${f.alertname} ${f.severity}`] = f.n;
    const byExchange: Record<string, string[]> = {};
    for (const ex of exchanges) {
      const mine = [...alerts.ofExchange(ex).values()].map((a) => a.labels.network ?? '');
      if (mine.length > 0) byExchange[ex] = mine;
    }
    return { firing, byExchange };
  }

  it('counts firing alerts by alertname and severity, and lists each exchange’s, through pending -> firing -> replaced -> removed', () => {
    const rule = ruleW();
    const onY = (a: Alert): Alert => ({ ...a, labels: { ...a.labels, exchange: 'y' }, fingerprint: `y-${a.fingerprint}` });
    const pendingA = active(instance(rule, 'A'), 'pending', 0);
    const firingB = active(instance(rule, 'B'), 'firing', 0);
    const firingC = onY(active(instance(rule, 'C'), 'firing', 0));
    const alerts = new ActiveAlerts([pendingA, firingB, firingC]);
    const exchanges = ['x', 'y', 'z'];
    expect(indexed(alerts, exchanges)).toEqual({ firing: { 'W warning': 2 }, byExchange: { x: ['A', 'B'], y: ['C'] } });
    expect(indexed(alerts, exchanges)).toEqual(walked(alerts));

    // A begins firing (the same fingerprint, a new object); B is set again unchanged; C goes.
    alerts.apply({ set: [{ ...pendingA, status: 'firing', startsAt: MIN }, { ...firingB }], removed: [firingC.fingerprint] });
    expect(indexed(alerts, exchanges)).toEqual({ firing: { 'W warning': 2 }, byExchange: { x: ['A', 'B'] } });
    expect(indexed(alerts, exchanges)).toEqual(walked(alerts));

    // Both of x's go; removing an unknown fingerprint changes nothing.
    alerts.apply({ set: [], removed: [pendingA.fingerprint, firingB.fingerprint, 'nope'] });
    expect(indexed(alerts, exchanges)).toEqual({ firing: {}, byExchange: {} });
    expect([...alerts.firing()]).toEqual([{ alertname: 'W', severity: 'warning', n: 0 }]);
    expect(alerts.ofExchange('x').size).toBe(0);
  });
});
