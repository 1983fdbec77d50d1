import { fingerprint } from '../../src/alerts/alert';
import { stack, type Stack, type WebhookBody } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

const RULES = `
rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    match: { coin: "USDT" }
    severity: critical
  - alert: MaintenanceMessage
    change: [deposit_desc_set, withdraw_desc_set]
    severity: info
  - alert: NetworkRemoved
    change: network_removed
    severity: warning
  - alert: FastMove
    ticker: move_percent
    window: 1m
    above: 3
    match: { symbol: BTCUSDT }
`;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TRC = { coin: 'USDT', network: 'Tron(TRC20)' };

function alertsOf(bodies: WebhookBody[], alertname: string): WebhookBody['alerts'] {
  return bodies.filter((b) => b.groupLabels.alertname === alertname).flatMap((b) => b.alerts);
}

jest.setTimeout(60_000);

/** Waits for `n` more coin polls of the daemon (instead of a fixed sleep when asserting that nothing more arrives). */
async function polls(url: string | undefined, n: number): Promise<void> {
  const at = async (): Promise<string> => ((await (await fetch(`${url}/api/v1/state`)).json()) as { data: { exchanges: { polls: { coins: { at: string } } }[] } }).data.exchanges[0]?.polls.coins.at ?? '';
  for (let i = 0; i < n; i++) {
    const seen = await at();
    await waitFor(async () => (await at()) !== seen, 'another poll');
  }
}

describe('watching the reference exchange end to end', () => {
  let s: Stack;
  beforeAll(async () => {
    s = await stack(RULES);
  });
  afterAll(() => s.close());

  it('fires, tells, resolves, and after a restart reports what changed meanwhile and nothing twice', async () => {
    const daemon = await s.start();
    expect(s.bodies()).toEqual([]); // the baseline: nothing is disabled, and no change events

    // 1. A withdraw flag flips with a message in the same poll: the state alert, and the event.
    s.sim.control.apply({ action: 'set_network', ...TRC, set: { withdrawEnable: false, withdrawDesc: 'Wallet maintenance <b>now</b>' } });
    await waitFor(() => alertsOf(s.bodies(), 'WithdrawDisabled').length === 1 && alertsOf(s.bodies(), 'MaintenanceMessage').length === 1, 'the first notifications');
    const [firing] = s.bodies().filter((b) => b.groupLabels.alertname === 'WithdrawDisabled');
    const labels = { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: 'USDT', network: 'Tron(TRC20)', chain: 'tron', kind: 'withdraw_disabled' };
    const fp = fingerprint(labels);
    const annotations = {
      summary: 'USDT withdrawals disabled on Tron(TRC20) (main)',
      description: 'Exchange message: Wallet maintenance <b>now</b>',
      withdraw_desc: 'Wallet maintenance <b>now</b>',
      // No notice explains it (notices.md section 3).
      notice: 'none',
    };
    expect(firing).toEqual({
      version: '4',
      groupKey: '{}:{alertname="WithdrawDisabled",exchange="main"}',
      truncatedAlerts: 0,
      status: 'firing',
      receiver: 'hook',
      groupLabels: { exchange: 'main', alertname: 'WithdrawDisabled' },
      commonLabels: labels,
      commonAnnotations: annotations,
      externalURL: daemon.url,
      alerts: [{ status: 'firing', labels, annotations, startsAt: expect.stringMatching(ISO), endsAt: '0001-01-01T00:00:00Z', generatorURL: `${daemon.url}/#${fp}`, fingerprint: fp }],
    });
    const [event] = alertsOf(s.bodies(), 'MaintenanceMessage');
    expect(event).toMatchObject({
      status: 'firing',
      labels: { alertname: 'MaintenanceMessage', exchange: 'main', severity: 'info', coin: 'USDT', network: 'Tron(TRC20)', kind: 'withdraw_desc_set' },
      annotations: { summary: 'USDT on Tron(TRC20): withdraw desc set (main)', description: 'withdraw desc set: (none) -> Wallet maintenance <b>now</b>', withdraw_desc: 'Wallet maintenance <b>now</b>' },
      endsAt: '0001-01-01T00:00:00Z',
    });

    // 2. A deposit message on another network: one event, nothing else.
    s.sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { depositDesc: 'Node upgrade' } });
    await waitFor(() => alertsOf(s.bodies(), 'MaintenanceMessage').length === 2, 'the deposit message event');
    expect(alertsOf(s.bodies(), 'MaintenanceMessage')[1]?.labels).toEqual({ alertname: 'MaintenanceMessage', exchange: 'main', severity: 'info', coin: 'BTC', network: 'BTC', chain: 'bitcoin', kind: 'deposit_desc_set' });

    // 3. A price moves 8 % within the window.
    s.sim.control.apply({ action: 'move_price', symbol: 'BTCUSDT', percent: 8, over: '300ms' });
    await waitFor(() => alertsOf(s.bodies(), 'FastMove').length === 1, 'the FastMove alert');
    expect(alertsOf(s.bodies(), 'FastMove')[0]?.labels).toEqual({ alertname: 'FastMove', exchange: 'main', severity: 'warning', symbol: 'BTCUSDT', kind: 'move_percent' });

    // 4. Stopped: a network is removed and withdrawals reopen while nobody watches.
    await s.stop();
    const before = s.bodies().length;
    s.sim.control.apply([
      { action: 'remove_network', coin: 'USDT', network: 'TON' },
      { action: 'set_network', ...TRC, set: { withdrawEnable: true, withdrawDesc: null } },
    ]);
    const again = await s.start();
    await waitFor(() => alertsOf(s.bodies(), 'NetworkRemoved').length === 1 && alertsOf(s.bodies(), 'WithdrawDisabled').length === 2, 'the changes made while stopped');
    const resolved = alertsOf(s.bodies(), 'WithdrawDisabled')[1];
    expect(resolved).toMatchObject({ status: 'resolved', fingerprint: fp, endsAt: expect.stringMatching(ISO) });
    expect(alertsOf(s.bodies(), 'NetworkRemoved')[0]?.labels).toEqual({ alertname: 'NetworkRemoved', exchange: 'main', severity: 'warning', coin: 'USDT', network: 'TON', chain: 'ton', kind: 'network_removed' });
    const changes = (await (await fetch(`${again.url}/api/v1/changes?coin=USDT&kind=network_removed`)).json()) as { data: { kind: string; network: string }[] };
    expect(changes.data.map((c) => [c.kind, c.network])).toEqual([['network_removed', 'TON']]);

    // Nothing else arrives: no second FastMove, no repeated event, no duplicate firing.
    await polls(again.url, 4);
    const names = s.bodies().slice(before).map((b) => `${b.status} ${b.groupLabels.alertname}`).sort();
    expect(names).toEqual(['firing NetworkRemoved', 'resolved WithdrawDisabled']);
  });
});
