import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigFile } from '../../src/config';
import { Daemon } from '../../src/daemon';
import { silentLogger } from '../../src/lib/logger';
import { startSimulator } from '../../src/simulator';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(60_000);

describe('several exchanges side by side', () => {
  it('polls each on its own, labels everything by exchange, and a failing one does not hold back the other', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spotwatch-multi-'));
    const a = await startSimulator({ port: 0, coins: 20, seed: 1, logger: silentLogger() });
    const b = await startSimulator({ port: 0, coins: 25, seed: 2, logger: silentLogger() });
    const hook = await new WebhookReceiver().start();
    writeFileSync(join(dir, 'rules.yaml'), 'rules:\n  - alert: W\n    state: withdraw_disabled\n    match: { coin: USDT, network: "Tron(TRC20)" }\n');
    writeFileSync(
      join(dir, 'c.yaml'),
      `exchanges:
  - name: alpha
    base_url: ${a.url}
    poll: { coins: 150ms, tickers: 150ms }
    retries: { max: 0 }
  - name: beta
    base_url: ${b.url}
    poll: { coins: 150ms, tickers: 150ms }
    retries: { max: 0 }
server: { listen: "127.0.0.1:0" }
state_dir: ${join(dir, 'data')}
rules_file: rules.yaml
notify:
  group_wait: 0s
  group_interval: 200ms
  receivers:
    - name: hook
      webhook: { url: "${hook.url}/h" }
`,
    );
    const loaded = await loadConfigFile(join(dir, 'c.yaml'), {});
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    const daemon = await Daemon.start(loaded.config, { logger: silentLogger() }, { env: {} });
    const url = daemon.url as string;
    try {
      await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200, 'both exchanges polled');
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metrics).toContain('spotwatch_coins{exchange="alpha"} 20');
      expect(metrics).toContain('spotwatch_coins{exchange="beta"} 25');

      // The same network closing on both exchanges is two alerts, one per exchange.
      const closed = { action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false } };
      a.control.apply(closed);
      b.control.apply(closed);
      const firing = (): string[] =>
        hook.received.map((r) => r.body as { alerts: { status: string; labels: Record<string, string>; fingerprint: string }[] }).flatMap((x) => x.alerts).filter((x) => x.labels.alertname === 'W' && x.status === 'firing').map((x) => `${x.labels.exchange}:${x.fingerprint}`);
      await waitFor(() => firing().length === 2, 'one alert per exchange');
      const [fa, fb] = firing().sort();
      expect([fa?.split(':')[0], fb?.split(':')[0]]).toEqual(['alpha', 'beta']);
      expect(fa?.split(':')[1]).not.toBe(fb?.split(':')[1]);

      // Beta fails; alpha goes on: its network reopening resolves alpha's alert only.
      b.control.addFault({ kind: 'http_500', endpoint: 'all' });
      a.control.apply({ ...closed, set: { withdrawEnable: true } });
      await waitFor(() => hook.received.some((r) => (r.body as { status: string }).status === 'resolved'), 'alpha resolved while beta fails');
      const resolved = hook.received.map((r) => r.body as { alerts: { status: string; labels: Record<string, string> }[] }).flatMap((x) => x.alerts).filter((x) => x.status === 'resolved');
      expect(resolved.map((x) => x.labels.exchange)).toEqual(['alpha']);
      await waitFor(async () => (await (await fetch(`${url}/metrics`)).text()).includes('spotwatch_up{exchange="beta"} 0'), 'beta down');
      expect(await (await fetch(`${url}/metrics`)).text()).toContain('spotwatch_up{exchange="alpha"} 1');
    } finally {
      await daemon.stop();
      await hook.stop();
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
