import { join } from 'node:path';
import Database from 'better-sqlite3';
import { stack } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

jest.setTimeout(60_000);

describe('a change waiting in group_wait when the daemon dies', () => {
  it('is told after the restart, once', async () => {
    const s = await stack('rules:\n  - alert: Fee\n    change: withdraw_fee_changed\n', { coins: 20, poll: '{ coins: 150ms, tickers: 1s }', group_wait: '1h' });
    const { sim, hook, dir } = s;
    try {
      await s.start();
      sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawFee: '0.00042' } });
      // The event is in its group for an hour, and in the store's pending list.
      const db = new Database(join(dir, 'data', 'spotwatch.db'), { readonly: true });
      await waitFor(() => (db.prepare('SELECT COUNT(*) AS n FROM pending').get() as { n: number }).n === 1, 'the pending row');
      db.close();
      await s.stop(); // as good as a crash for what waits in memory
      expect(hook.received).toEqual([]);

      await s.reconfigure({ group_wait: '0s' });
      await s.start();
      await waitFor(() => hook.received.length === 1, 'the event after the restart');
      const body = hook.received[0]?.body as { alerts: { labels: Record<string, string>; annotations: Record<string, string> }[] };
      expect(body.alerts.map((a) => [a.labels.alertname, a.labels.kind, a.annotations.description])).toEqual([['Fee', 'withdraw_fee_changed', 'withdraw fee changed: 0.0002 -> 0.00042']]);
      await s.stop();
      expect(hook.received).toHaveLength(1);
    } finally {
      await s.close();
    }
  });
});

describe('a closure waiting in group_wait when the daemon dies', () => {
  it('is told after the restart, once: the stored alert rejoins its group (it needs no pending row)', async () => {
    const s = await stack('rules:\n  - alert: Closed\n    state: withdraw_disabled\n    match: { coin: BTC }\n', { coins: 20, poll: '{ coins: 150ms, tickers: 1s }', group_wait: '1h' });
    const { sim, hook, dir } = s;
    try {
      await s.start();
      sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawEnable: false } });
      const db = new Database(join(dir, 'data', 'spotwatch.db'), { readonly: true });
      await waitFor(() => (db.prepare("SELECT COUNT(*) AS n FROM alerts WHERE body LIKE '%\"Closed\"%'").get() as { n: number }).n === 1, 'the stored alert');
      expect((db.prepare('SELECT COUNT(*) AS n FROM pending').get() as { n: number }).n).toBe(0);
      db.close();
      await s.stop();
      expect(hook.received).toEqual([]);

      await s.reconfigure({ group_wait: '0s' });
      await s.start();
      await waitFor(() => hook.received.length === 1, 'the closure after the restart');
      const body = hook.received[0]?.body as { alerts: { status: string; labels: Record<string, string> }[] };
      expect(body.alerts.map((a) => [a.status, a.labels.alertname, a.labels.coin, a.labels.network])).toEqual([['firing', 'Closed', 'BTC', 'BTC']]);
      await s.stop();
      expect(hook.received).toHaveLength(1);
    } finally {
      await s.close();
    }
  });
});
