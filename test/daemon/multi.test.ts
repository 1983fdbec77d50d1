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
});
