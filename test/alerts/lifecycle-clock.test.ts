import { fingerprint, type Alert } from '../../src/alerts/alert';
import { decide } from '../../src/alerts/dedup';
import { annotate } from '../../src/alerts/annotations';
import { activeAlerts, AlertsDraft, type ActiveAlerts } from '../../src/alerts/lifecycle';
import type { Instance } from '../../src/rules/evaluate';
import type { Rule } from '../../src/rules/model';
import { steppingClock } from '../support/stepping-clock';
import { rulesFrom } from '../support/rules-harness';

const S = 1000;
const H = 3_600_000;
const T = Date.parse('2026-05-01T12:00:00Z');

function ruleW(extra = ''): Rule {
  return rulesFrom(`rules:\n  - alert: W\n    state: withdraw_disabled\n${extra}`)[0] as Rule;
}

function instance(rule: Rule): Instance {
  const labels = { alertname: 'W', exchange: 'x', severity: rule.severity, coin: 'C', network: 'N' };
  return { rule, entity: 'x\u0000C\u0000N', labels, fields: { coin: 'C', network: 'N', exchange: 'x', kind: 'withdraw_disabled' }, value: null };
}

/** One evaluation of `rule` at the clock's time (both clocks, as the poll path reads them): what was told, and the alerts after. */
function judge(base: ActiveAlerts, rule: Rule, holds: boolean, clock: ReturnType<typeof steppingClock>): { told: Alert[]; next: ActiveAlerts; clamped: Alert[] } {
  const draft = new AlertsDraft(base, clock.monotonic());
  draft.judge('x', rule, holds ? [instance(rule)] : [], clock.now());
  return { told: draft.transitions.filter((t) => t.to !== 'pending').map((t) => t.alert), next: draft.result(), clamped: draft.clamped };
}

describe('an alert\'s times when the wall clock steps', () => {
  it.each([
    ['back', -H],
    ['forward', H],
  ])('stepped %s an hour during a 90 s closure: firing, then resolved, startsAt <= endsAt, and the outage lasted exactly 90 s', (_way, stepMs) => {
    const rule = ruleW();
    const clock = steppingClock(T);
    const fired = judge(new Map(), rule, true, clock);
    clock.advance(30 * S);
    clock.step(stepMs);
    clock.advance(60 * S);
    const resolved = judge(fired.next, rule, false, clock);
    expect([...fired.told, ...resolved.told].map((a) => [a.status, a.startsAt, a.endsAt])).toEqual([
      ['firing', T, null],
      ['resolved', T, T + 90 * S],
    ]);
    expect(resolved.clamped).toEqual([]);
  });

  it('`for` counts real time: a clock set back an hour does not hold a closure pending for an hour', () => {
    const rule = ruleW('    for: 1m\n');
    const clock = steppingClock(T);
    let at = judge(new Map(), rule, true, clock);
    expect(at.told).toEqual([]);
    clock.advance(20 * S);
    clock.step(-H);
    clock.advance(39 * S);
    at = judge(at.next, rule, true, clock);
    expect(at.told).toEqual([]);
    clock.advance(1 * S);
    at = judge(at.next, rule, true, clock);
    expect(at.told.map((a) => [a.status, a.activeAt, a.startsAt])).toEqual([['firing', T, T + 60 * S]]);
  });

  it('an alert restored from the store with times ahead of the clock (set back while stopped) ends at its start, never before, and says so', () => {
    const rule = ruleW();
    const inst = instance(rule);
    const stored: Alert = {
      fingerprint: fingerprint(inst.labels), ruleId: rule.id, entity: inst.entity, labels: inst.labels, annotations: annotate(rule, inst),
      status: 'firing', activeAt: T, startsAt: T, endsAt: null, lastActiveAt: T, lastNotifiedAt: T, value: null, event: false,
    };
    const clock = steppingClock(T - H);
    const resolved = judge(activeAlerts([stored]), rule, false, clock);
    expect(resolved.told.map((a) => [a.status, a.startsAt, a.endsAt])).toEqual([['resolved', T, T]]);
    expect(resolved.clamped.map((a) => a.fingerprint)).toEqual([stored.fingerprint]);
  });
});

describe('the notification log read after the clock was set back', () => {
  it('an entry written "in the future" says told: no new notification, no repeat', () => {
    const entry = { firing: ['a'], resolved: [], at: T };
    expect(decide(entry, ['a'], [], true, 4 * H, T - H)).toEqual({ send: false, entry });
    expect(decide(entry, ['a'], [], true, 4 * H, T - H + 4 * H - 1).send).toBe(false);
  });
});
