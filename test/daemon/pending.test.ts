import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadConfigFile } from '../../src/config';
import { Daemon } from '../../src/daemon';
import { silentLogger } from '../../src/lib/logger';
import { startSimulator } from '../../src/simulator';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(60_000);

describe('a change waiting in group_wait when the daemon dies', () => {
  it('is told after the restart, once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spotwatch-pending-'));
    const sim = await startSimulator({ port: 0, coins: 20, seed: 4, logger: silentLogger() });
    const hook = await new WebhookReceiver().start();
    writeFileSync(join(dir, 'rules.yaml'), 'rules:\n  - alert: Fee\n    change: withdraw_fee_changed\n');
    const write = (groupWait: string): string => {
      const file = join(dir, `c-${groupWait}.yaml`);
      writeFileSync(file, `exchanges:\n  - name: main\n    base_url: ${sim.url}\n    poll: { coins: 150ms, tickers: 1s }\nserver: { listen: "127.0.0.1:0" }\nstate_dir: ${join(dir, 'data')}\nrules_file: rules.yaml\nnotify:\n  group_wait: ${groupWait}\n  group_interval: 200ms\n  receivers:\n    - name: hook\n      webhook: { url: "${hook.url}/h" }\n`);
      return file;
    };
    const start = async (file: string): Promise<Daemon> => {
      const loaded = await loadConfigFile(file, {});
      if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
      const d = await Daemon.start(loaded.config, { logger: silentLogger() }, { env: {} });
      await waitFor(async () => (await fetch(`${d.url}/readyz`)).status === 200, 'ready');
      return d;
    };
    try {
      const first = await start(write('1h'));
      sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawFee: '0.00042' } });
      // The event is in its group for an hour, and in the store's pending list.
      const db = new Database(join(dir, 'data', 'spotwatch.db'), { readonly: true });
      await waitFor(() => (db.prepare('SELECT COUNT(*) AS n FROM pending').get() as { n: number }).n === 1, 'the pending row');
      db.close();
      await first.stop(); // as good as a crash for what waits in memory
      expect(hook.received).toEqual([]);

      const second = await start(write('0s'));
      await waitFor(() => hook.received.length === 1, 'the event after the restart');
      const body = hook.received[0]?.body as { alerts: { labels: Record<string, string>; annotations: Record<string, string> }[] };
      expect(body.alerts.map((a) => [a.labels.alertname, a.labels.kind, a.annotations.description])).toEqual([['Fee', 'withdraw_fee_changed', 'withdraw fee changed: 0.0002 -> 0.00042']]);
      await second.stop();
      expect(hook.received).toHaveLength(1);
    } finally {
      await hook.stop();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
