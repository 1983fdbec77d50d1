import type { Alert } from '../../src/alerts/alert';
import { Aggregator } from '../../src/alerts/groups';
import { compileRoutes } from '../../src/alerts/route';

const S = 1000;
const routes = compileRoutes([], { receivers: ['hook'], group_by: ['exchange', 'alertname'], group_wait: 10 * S, group_interval: 60 * S, repeat_interval: 3_600 * S });

/** A change event of one network (a new fingerprint each time, as events have). */
function event(at: number, kind: 'withdraw_disabled' | 'withdraw_enabled'): Alert {
  return {
    fingerprint: `ev-${at}`, ruleId: 'r', entity: 'USDT/TRX', labels: { alertname: 'Flip', exchange: 'main', coin: 'USDT', network: 'TRX', kind },
    annotations: {}, status: 'firing', activeAt: at, startsAt: at, endsAt: null, lastActiveAt: at, lastNotifiedAt: at, value: null, event: true,
  };
}

/**
 * Runs the aggregator on an injected clock, one step per second: `events[t]` joins at second t.
 * Returns the seconds at which a flush went out, with the events it carried.
 */
function run(events: Map<number, Alert>, seconds: number): string[] {
  const agg = new Aggregator(routes);
  const out: string[] = [];
  for (let t = 0; t <= seconds; t++) {
    const e = events.get(t);
    if (e !== undefined) agg.insert([e], t * S);
    for (const f of agg.due(t * S)) out.push(`${t}s: ${f.alerts.map((a) => a.fingerprint).join(' ')}`);
  }
  return out;
}

describe('Aggregator: a group that empties', () => {
  it.each([
    {
      name: 'a network flipping every 10 s for 2 minutes: one flush per group_interval, not one per flip',
      events: new Map(Array.from({ length: 12 }, (_, i) => [i * 10, event(i * 10 * S, i % 2 === 0 ? 'withdraw_disabled' : 'withdraw_enabled')])),
      seconds: 180,
      flushes: ['10s: ev-0 ev-10000', '70s: ev-20000 ev-30000 ev-40000 ev-50000 ev-60000 ev-70000', '130s: ev-80000 ev-90000 ev-100000 ev-110000'],
    },
    {
      name: 'an event after the kept group_interval has passed opens a new group with group_wait',
      events: new Map([[0, event(0, 'withdraw_disabled')], [75, event(75 * S, 'withdraw_enabled')]]),
      seconds: 200,
      flushes: ['10s: ev-0', '85s: ev-75000'],
    },
    {
      name: 'an event within the kept group_interval waits for it (the last send counts)',
      events: new Map([[0, event(0, 'withdraw_disabled')], [30, event(30 * S, 'withdraw_enabled')]]),
      seconds: 200,
      flushes: ['10s: ev-0', '70s: ev-30000'],
    },
  ])('$name', ({ events, seconds, flushes }) => {
    expect(run(events, seconds)).toEqual(flushes);
  });

  it('an empty group kept for group_interval is then dropped (nothing due afterwards)', () => {
    const agg = new Aggregator(routes);
    agg.insert([event(0, 'withdraw_disabled')], 0);
    expect(agg.due(10 * S)).toHaveLength(1);
    expect({ size: agg.size(), next: agg.nextDue() }).toEqual({ size: 1, next: 70 * S });
    expect(agg.due(70 * S)).toEqual([]);
    expect({ size: agg.size(), next: agg.nextDue() }).toEqual({ size: 0, next: undefined });
  });
});

describe('Aggregator: when a new group is first due', () => {
  it.each([
    { name: 'an alert decided now: group_wait from now', decided: 100 * S, now: 100 * S, due: 110 * S },
    { name: 'an alert decided 3 s before it reached the groups (a storm\'s writes): group_wait from its poll', decided: 97 * S, now: 100 * S, due: 107 * S },
    { name: 'decided just under group_wait ago: due almost at once', decided: 90 * S + 1, now: 100 * S, due: 100 * S + 1 },
    { name: 'decided group_wait ago (a storm\'s writes outlasted group_wait): due at once, not a whole group_wait more', decided: 90 * S, now: 100 * S, due: 100 * S },
    { name: 'decided just under a minute ago: due since its group_wait ran out', decided: 40 * S + 1, now: 100 * S, due: 50 * S + 1 },
    { name: 'decided a minute ago (restored at a start): a whole group_wait', decided: 40 * S, now: 100 * S, due: 110 * S },
    { name: 'decided hours ago (restored at a start): a whole group_wait', decided: 0, now: 100 * S, due: 110 * S },
    { name: 'a time after now (a clock set back): a whole group_wait from now', decided: 105 * S, now: 100 * S, due: 110 * S },
  ])('$name', ({ decided, now, due }) => {
    const agg = new Aggregator(routes);
    agg.insert([event(decided, 'withdraw_disabled')], now);
    expect(agg.nextDue()).toBe(due);
  });
});
