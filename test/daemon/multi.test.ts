import type { RunningSimulator } from '../../src/simulator';
import { stack } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

jest.setTimeout(60_000);

describe('several exchanges side by side', () => {
  it('polls each on its own, labels everything by exchange, and a failing one does not hold back the other', async () => {
    const s = await stack('rules:\n  - alert: W\n    state: withdraw_disabled\n    match: { coin: USDT, network: "Tron(TRC20)" }\n', {
      exchanges: [{ name: 'alpha', coins: 20, seed: 1 }, { name: 'beta', coins: 25, seed: 2 }],
    });
    const [a, b] = [s.sims.get('alpha'), s.sims.get('beta')] as [RunningSimulator, RunningSimulator];
    const hook = s.hook;
    const daemon = await s.start();
    const url = daemon.url as string;
    try {
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
      await s.close();
    }
  });

  it('forgets an exchange and a receiver taken out by a reload: no series of theirs stays behind', async () => {
    const s = await stack('rules: []\n', {
      exchanges: [{ name: 'alpha', coins: 20, seed: 1 }, { name: 'beta', coins: 25, seed: 2 }],
      receivers: (hookUrl) => `    - name: hook\n      webhook: { url: "${hookUrl}/h" }\n    - name: spare\n      webhook: { url: "${hookUrl}/spare" }\n`,
    });
    try {
      const daemon = await s.start();
      const url = daemon.url as string;
      const metrics = async (): Promise<string> => (await fetch(`${url}/metrics`)).text();
      const before = await metrics();
      expect(before).toContain('spotwatch_up{exchange="beta"} 1');
      expect(before).toContain('spotwatch_ticker_last_price{exchange="beta",symbol="BTCUSDT"}');
      expect(before).toContain('spotwatch_outbox_pending{receiver="spare"} 0');
      const polls = (text: string): number => Number(/spotwatch_poll_duration_seconds_count\{exchange="alpha",endpoint="coins"\} (\d+)/.exec(text)?.[1]);
      expect(polls(before)).toBeGreaterThan(0);

      await s.reconfigure({ watch: ['alpha'], receivers: (hookUrl) => `    - name: hook\n      webhook: { url: "${hookUrl}/h" }\n` });
      expect((await fetch(`${url}/-/reload`, { method: 'POST' })).status).toBe(200);
      const after = await metrics();
      expect(after).not.toContain('exchange="beta"');
      expect(after).not.toContain('receiver="spare"');
      // What stays keeps its values: no exchange looks down, no histogram loses its counts.
      expect(after).toContain('spotwatch_up{exchange="alpha"} 1');
      expect(polls(after)).toBeGreaterThanOrEqual(polls(before));
      expect(after).toContain('spotwatch_ticker_last_price{exchange="alpha",symbol="BTCUSDT"}');
      expect(after).toContain('spotwatch_outbox_pending{receiver="hook"} 0');
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
