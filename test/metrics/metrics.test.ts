import { Registry } from 'prom-client';
import { createMetrics, forgetSeries, initSeries } from '../../src/metrics/metrics';
import { FAILURE_REASONS } from '../../src/notify/notifier';

/** The value of one series, or undefined when the series does not exist. */
async function value(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = await registry.getSingleMetric(name)?.get();
  return metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value;
}

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
});
