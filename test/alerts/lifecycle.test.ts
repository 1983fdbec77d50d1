import { fingerprint, type Alert } from '../../src/alerts/alert';
import { annotate } from '../../src/alerts/annotations';
import { activeAlerts, AlertsDraft } from '../../src/alerts/lifecycle';
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

/** What a draft decided, in words: each alert written (status), each deleted, each transition told (status). */
function gist(draft: AlertsDraft): { set: string[]; removed: number; told: string[] } {
  const { set, removed } = draft.writes();
  const told = draft.transitions.filter((t) => t.to !== 'pending' && t.to !== 'dropped');
  return { set: set.map((a) => `${a.labels.network} ${a.status}`), removed: removed.length, told: told.map((t) => `${t.alert.labels.network} ${t.alert.status}`) };
}

const MIN = 60_000;

describe('the alert lifecycle as a table', () => {
  const CASES = [
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
  ];

  function draftWith(rule: Rule, inst: Instance, before: string): AlertsDraft {
    if (before === 'none') return new AlertsDraft(new Map());
    const [status, at] = before.split('@') as ['pending' | 'firing', string];
    return new AlertsDraft(activeAlerts([active(inst, status, Number(at))]));
  }

  it.each(CASES)('judged: $name', ({ rule: extra, prev: before, seen, now, want }) => {
    const rule = ruleW(extra);
    const inst = instance(rule);
    const draft = draftWith(rule, inst, before);
    draft.judge('x', rule, seen ? [inst] : [], now);
    expect(gist(draft)).toEqual(want);
  });

  // Time passing on the same part (carry): exactly what judging the same instances again does, for rules without keep_firing_for.
  it.each(CASES.filter((c) => c.seen && !c.rule.includes('keep_firing_for')))('carried: $name', ({ rule: extra, prev: before, now, want }) => {
    const rule = ruleW(extra);
    const inst = instance(rule);
    const carried = draftWith(rule, inst, before);
    carried.carry('x', rule, now);
    const judged = draftWith(rule, inst, before);
    judged.judge('x', rule, before === 'none' ? [] : [inst], now);
    expect(gist(carried)).toEqual(before === 'none' ? { set: [], removed: 0, told: [] } : want);
    expect(gist(carried)).toEqual(gist(judged));
  });

  it('resolves the alerts of a rule that no longer exists, and leaves other exchanges and rules alone', () => {
    const rule = ruleW();
    const other = rulesFrom('rules:\n  - alert: V\n    state: deposit_disabled\n')[0] as Rule;
    const draft = new AlertsDraft(activeAlerts([active(instance(rule, 'A'), 'firing', 0), active(instance(other, 'B'), 'firing', 0), { ...active(instance(rule, 'C'), 'firing', 0), labels: { ...instance(rule, 'C').labels, exchange: 'y' }, fingerprint: 'y-c' }]));
    draft.end('x', rule.id, MIN);
    expect(gist(draft)).toEqual({ set: [], removed: 1, told: ['A resolved'] });
    expect(draft.ruleIds('x')).toEqual([other.id]);
    expect(draft.ruleIds('y')).toEqual([rule.id]);
  });

  it('changes nothing of the active alerts it was given, and gives the same ones back when nothing changed', () => {
    const rule = ruleW('    for: 5m\n');
    const base = activeAlerts([active(instance(rule, 'A'), 'pending', 0)]);
    const quiet = new AlertsDraft(base);
    quiet.judge('x', rule, [instance(rule, 'A')], MIN);
    expect(quiet.result()).toBe(base);
    const busy = new AlertsDraft(base);
    busy.judge('x', rule, [instance(rule, 'A'), instance(rule, 'B')], 5 * MIN);
    expect([...(busy.result().get('x')?.get(rule.id)?.values() ?? [])].map((a) => `${a.labels.network} ${a.status}`)).toEqual(['A firing', 'B pending']);
    expect([...(base.get('x')?.get(rule.id)?.values() ?? [])].map((a) => `${a.labels.network} ${a.status}`)).toEqual(['A pending']);
  });
});
