import { Registry } from 'prom-client';
import { createMetrics, forgetSeries, initSeries, observeNotices } from '../../src/metrics/metrics';
import type { NoticeLists } from '../../src/notices/book-json';
import type { Maintenance } from '../../src/notices/model';
import { FAILURE_REASONS } from '../../src/notify/notifier';

/** The value of one series, or undefined when the series does not exist. */
async function value(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = await registry.getSingleMetric(name)?.get();
  return metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value;
}

describe('createMetrics', () => {
  it('exports no gauge named like a counter (promtool check metrics refuses one): prom-client\'s nodejs_active_*_total are dropped, their families by type stay', async () => {
    const registry = new Registry();
    initSeries(createMetrics(registry), ['main'], ['ops']);
    const text = await registry.metrics();
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1] as string, m[2] as string] as const);
    expect(types.filter(([name, type]) => name.endsWith('_total') && type !== 'counter')).toEqual([]);
    expect(types.filter(([name]) => name.startsWith('nodejs_active_'))).toEqual([
      ['nodejs_active_resources', 'gauge'],
      ['nodejs_active_handles', 'gauge'],
      ['nodejs_active_requests', 'gauge'],
    ]);
  });
});

describe('initSeries and forgetSeries', () => {
  it('starts the series of new exchanges, receivers and rules at zero, and leaves the others as they are', async () => {
    const registry = new Registry();
    const m = createMetrics(registry);
    initSeries(m, ['main'], ['ops'], [{ alert: 'Down', severity: 'page' }]);
    m.up.set({ exchange: 'main' }, 1);
    m.notifications.inc({ receiver: 'ops', outcome: 'success' }, 3);
    m.alertsFiring.set({ alertname: 'Down', severity: 'page' }, 2);

    initSeries(m, ['main', 'beta'], ['ops'], [{ alert: 'Down', severity: 'page' }]);

    expect(await value(registry, 'spotwatch_up', { exchange: 'main' })).toBe(1);
    expect(await value(registry, 'spotwatch_up', { exchange: 'beta' })).toBe(0);
    expect(await value(registry, 'spotwatch_notifications_total', { receiver: 'ops', outcome: 'success' })).toBe(3);
    expect(await value(registry, 'spotwatch_alerts_firing', { alertname: 'Down', severity: 'page' })).toBe(2);
  });

  it('starts a failed-notification series for every reason a notifier can give (the contract\'s list)', async () => {
    const registry = new Registry();
    initSeries(createMetrics(registry), [], ['ops']);
    const failed = await registry.getSingleMetric('spotwatch_notifications_failed_total')?.get();
    expect(failed?.values.map((v) => [v.labels.reason, v.value])).toEqual(FAILURE_REASONS.map((reason) => [reason, 0]));
    expect(FAILURE_REASONS).toEqual(['client_error', 'server_error', 'rate_limited', 'timeout', 'connect', 'other']);
  });

  it('removes what is gone, and starts it afresh when it comes back', async () => {
    const registry = new Registry();
    const m = createMetrics(registry);
    initSeries(m, ['main'], ['ops']);
    m.up.set({ exchange: 'main' }, 1);

    forgetSeries(m, { exchanges: ['main'], receivers: ['ops'] });
    expect(await value(registry, 'spotwatch_up', { exchange: 'main' })).toBeUndefined();
    expect(await value(registry, 'spotwatch_outbox_pending', { receiver: 'ops' })).toBeUndefined();

    initSeries(m, ['main'], ['ops']);
    expect(await value(registry, 'spotwatch_up', { exchange: 'main' })).toBe(0);
    expect(await value(registry, 'spotwatch_outbox_pending', { receiver: 'ops' })).toBe(0);
  });

  it('keeps what it has started with each metrics object: a second one starts its own series', async () => {
    const first = createMetrics(new Registry());
    initSeries(first, ['main'], []);
    const registry = new Registry();
    initSeries(createMetrics(registry), ['main'], []);
    expect(await value(registry, 'spotwatch_up', { exchange: 'main' })).toBe(0);
  });

  it('starts each exchange\'s window and announcement series, and each notice source\'s error series, at zero; and removes them with the exchange', async () => {
    const registry = new Registry();
    const m = createMetrics(registry);
    initSeries(m, ['main', 'quiet'], [], [], new Map([['main', ['bybit-status', 'statuspage']], ['quiet', []]]));
    const series = async (name: string) => (await registry.getSingleMetric(name)?.get())?.values.map((v) => `${Object.values(v.labels).join('/')}=${v.value}`);
    expect(await series('spotwatch_maintenance_windows')).toEqual(['main/scheduled=0', 'main/ongoing=0', 'main/completed=0', 'main/canceled=0', 'quiet/scheduled=0', 'quiet/ongoing=0', 'quiet/completed=0', 'quiet/canceled=0']);
    expect(await series('spotwatch_announcements_total')).toEqual(['main/listing=0', 'main/delisting=0', 'main/maintenance=0', 'main/other=0', 'quiet/listing=0', 'quiet/delisting=0', 'quiet/maintenance=0', 'quiet/other=0']);
    const kinds = ['error_answer', 'http', 'rate_limited', 'timeout', 'connect', 'schema', 'body_too_large'];
    expect(await series('spotwatch_notice_errors_total')).toEqual([...kinds.map((k) => `main/bybit-status/${k}=0`), ...kinds.map((k) => `main/statuspage/${k}=0`)]);
    expect(await series('spotwatch_exchange_status')).toEqual([]);

    forgetSeries(m, { exchanges: ['main'], receivers: [] });
    expect(await series('spotwatch_notice_errors_total')).toEqual([]);
    expect(await series('spotwatch_announcements_total')).toEqual(['quiet/listing=0', 'quiet/delisting=0', 'quiet/maintenance=0', 'quiet/other=0']);
    initSeries(m, ['main'], [], [], new Map([['main', ['statuspage']]]));
    expect(await series('spotwatch_notice_errors_total')).toEqual(kinds.map((k) => `main/statuspage/${k}=0`));
  });
});

describe('observeNotices', () => {
  const w = (id: string, state: Maintenance['state']): Maintenance => ({ exchange: 'main', id, title: id, state, begins: 0, ends: null, origin: 'planned', scope: 'exchange', coins: [], symbols: [], url: null, source: 'statuspage' });

  it('sets the status now to 1 and the others to 0, counts the windows by state and adds the announcements read for the first time; no status, no status series', async () => {
    const registry = new Registry();
    const m = createMetrics(registry);
    const series = async (name: string) => (await registry.getSingleMetric(name)?.get())?.values.map((v) => `${Object.values(v.labels).join('/')}=${v.value}`);
    const lists: NoticeLists = { status: { exchange: 'main', state: 'cancel_only', message: null, since: 0, checked: 0 }, windows: [w('a', 'scheduled'), w('b', 'scheduled'), w('c', 'completed')], announcements: [] };
    observeNotices(m, 'main', lists, { delisting: 2, listing: 1 });
    observeNotices(m, 'main', lists, { delisting: 1 });
    expect(await series('spotwatch_exchange_status')).toEqual(['main/normal=0', 'main/maintenance=0', 'main/cancel_only=1', 'main/post_only=0']);
    expect(await series('spotwatch_maintenance_windows')).toEqual(['main/scheduled=2', 'main/ongoing=0', 'main/completed=1', 'main/canceled=0']);
    expect(await series('spotwatch_announcements_total')).toEqual(['main/listing=1', 'main/delisting=3']);

    observeNotices(m, 'main', { status: null, windows: [], announcements: [] }, {});
    expect(await series('spotwatch_exchange_status')).toEqual([]);
    expect(await series('spotwatch_maintenance_windows')).toEqual(['main/scheduled=0', 'main/ongoing=0', 'main/completed=0', 'main/canceled=0']);
  });
});
