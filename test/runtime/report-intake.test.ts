import { Registry } from 'prom-client';
import type { Alert } from '../../src/alerts/alert';
import { ReadModel, ReportIntake } from '../../src/runtime/read-model';
import type { Views } from '../../src/http/views';
import { createMetrics } from '../../src/metrics/metrics';
import { PollMetrics } from '../../src/metrics/polls';
import type { PollReport } from '../../src/runtime/protocol';
import type { Change } from '../../src/snapshot/changes';
import type { StateStore } from '../../src/store/store';
import { capturedLogger } from '../support/log-capture';

/** The observer with real metrics and mirror, its log lines as a log reader sees them, and what the views, the store and delivery heard. */
function observer() {
  const { logger, lines } = capturedLogger('info');
  const registry = new Registry();
  const metrics = createMetrics(registry);
  const mirror = new ReadModel(async () => undefined, []);
  const observed: number[] = [];
  const touched: string[] = [];
  const o = new ReportIntake({
    logger,
    mirror,
    metrics,
    pollMetrics: new PollMetrics(metrics),
    views: { observe: (_exchange: string, changes: readonly Change[]) => observed.push(changes.length) } as unknown as Views,
    store: () => ({ outagesTouched: (exchange?: string, coin?: string) => touched.push(`${exchange ?? '*'}/${coin ?? '*'}`) }) as unknown as StateStore,
    ready: () => undefined,
    gauges: { rules: () => [], firing: () => mirror.firingCounts() },
  });
  return { o, lines, observed, touched, registry, mirror };
}

const alert = (fp: string, status: Alert['status']): Alert => ({ fingerprint: fp, ruleId: 'r', entity: fp, labels: { alertname: 'W', severity: 'warning', exchange: 'main' }, annotations: {}, status, activeAt: 0, startsAt: 0, endsAt: null, lastActiveAt: 0, lastNotifiedAt: 0, value: 1, event: false });
const change = (i: number): Change => ({ kind: 'withdraw_disabled', exchange: 'main', coin: `C${i}`, network: 'TRX', before: true, after: false, at: 1_000 + i });

function polled(over: Partial<PollReport> = {}): PollReport {
  return { exchange: 'main', endpoint: 'coins', outcome: 'accepted', at: 5_000, durationMs: 12, bytes: 100, issues: 0, firstIssues: [], coins: 3, networks: 4, tickers: 0, down: false, weightUsed: 5, versions: { coins: 7, tickers: 8 }, ...over };
}

describe('the poll observer', () => {
  it('logs a poll\'s changes one by one, counts them by kind and tells the views and the outage index', async () => {
    const { o, lines, observed, touched, registry } = observer();
    o.on({ t: 'changes', exchange: 'main', changes: [0, 1, 2].map(change) });
    expect(lines.map((l) => [l.msg, l.coin, l.exchange])).toEqual([['change', 'C0', 'main'], ['change', 'C1', 'main'], ['change', 'C2', 'main']]);
    expect(observed).toEqual([3]);
    expect(touched).toEqual(['main/C0', 'main/C1', 'main/C2']);
    expect((await registry.getSingleMetric('spotwatch_changes_total')?.get())?.values).toEqual([{ labels: { exchange: 'main', kind: 'withdraw_disabled' }, value: 3 }]);
  });

  it('has the outage index read every outage again when the engine\'s retention pruned the history (its connection\'s index heard it, this one did not)', () => {
    const { o, touched } = observer();
    o.on({ t: 'pruned' });
    // Every outage of every exchange: the pruned ones are gone from the index's source.
    expect(touched).toEqual(['*/*']);
  });

  it('logs a storm\'s first 50 changes of a poll, then one line with how many more when the poll is reported', () => {
    const { o, lines, observed } = observer();
    // A storm's changes come in messages of PER_MESSAGE (500) at most (runtime/protocol.ts).
    o.on({ t: 'changes', exchange: 'main', changes: Array.from({ length: 1_000 }, (_, i) => change(i)) });
    o.on({ t: 'changes', exchange: 'main', changes: Array.from({ length: 200 }, (_, i) => change(1_000 + i)) });
    expect(lines.length).toBe(50);
    expect(lines.map((l) => l.coin)).toEqual(Array.from({ length: 50 }, (_, i) => `C${i}`));
    o.on({ t: 'polled', poll: polled() });
    expect(lines[50]).toMatchObject({ msg: 'more changes not logged one by one', exchange: 'main', more: 1_150 });
    expect(observed).toEqual([1_000, 200]);
    // The next poll's changes are logged again.
    o.on({ t: 'changes', exchange: 'main', changes: [change(5)] });
    expect(lines[51]).toMatchObject({ msg: 'change', coin: 'C5' });
  });

  it('keeps the mirror of the active alerts and their firing counts', () => {
    const { o, mirror } = observer();
    o.on({ t: 'alerts', set: [alert('a', 'firing'), alert('b', 'pending')], removed: [] });
    expect([...mirror.activeAlerts()].map((a) => a.fingerprint)).toEqual(['a', 'b']);
    expect([...mirror.firingCounts()]).toEqual([{ alertname: 'W', severity: 'warning', n: 1 }]);
    o.on({ t: 'alerts', set: [], removed: ['a'] });
    expect([...mirror.activeAlerts()].map((a) => a.fingerprint)).toEqual(['b']);
    expect([...mirror.firingCounts()]).toEqual([{ alertname: 'W', severity: 'warning', n: 0 }]);
  });

  it('reports a poll: health, the poll metrics, a log line for a failure and for malformed records', async () => {
    const { o, lines, registry, mirror, touched } = observer();
    o.on({ t: 'polled', poll: polled({ issues: 2, firstIssues: [{ entity: 'coin', coin: 'X', index: 3, reason: 'coin is a number, not an object' }] }) });
    o.on({ t: 'polled', poll: polled({ endpoint: 'tickers', outcome: 'failed', kind: 'timeout', error: 'tickers: no complete answer within 5000 ms', durationMs: 5_000 }) });
    expect(lines.map((l) => [l.msg, l.endpoint, l.records ?? l.kind])).toEqual([
      ['malformed records kept at their previous values', 'coins', 2],
      ['poll failed', 'tickers', 'timeout'],
    ]);
    expect(mirror.health.lastPolls('main')).toEqual({ coins: { at: '1970-01-01T00:00:05.000Z', ok: true }, tickers: { at: '1970-01-01T00:00:05.000Z', ok: false, kind: 'timeout', error: 'tickers: no complete answer within 5000 ms' } });
    expect((await registry.getSingleMetric('spotwatch_poll_errors_total')?.get())?.values.map((v) => [v.labels, v.value])).toEqual([
      [{ exchange: 'main', endpoint: 'coins', kind: 'schema' }, 1],
      [{ exchange: 'main', endpoint: 'tickers', kind: 'timeout' }, 1],
    ]);
    // A new coins part: the outages the engine wrote with it are read back.
    expect(touched).toEqual(['main/*']);
  });

  it('keeps each exchange\'s notice lists as the engine reports them, whole, and forgets them with the exchange', () => {
    const { o, mirror } = observer();
    const status = { exchange: 'main', state: 'maintenance' as const, message: null, since: 1_000, checked: 2_000 };
    o.on({ t: 'notices', exchange: 'main', lists: { status: null, windows: [], announcements: [] }, firstRead: {} });
    o.on({ t: 'notices', exchange: 'main', lists: { status, windows: [], announcements: [] }, firstRead: {} });
    expect(mirror.notices('main')).toEqual({ status, windows: [], announcements: [] });
    expect(mirror.notices('other')).toBeUndefined();
    mirror.forget('main');
    expect(mirror.notices('main')).toBeUndefined();
  });
});
