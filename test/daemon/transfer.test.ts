import type { RunningSimulator } from '../../src/simulator';
import { stack, type Stack, type WebhookBody } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

jest.setTimeout(60_000);

const RULES = `rules:
  - alert: TransferRouteClosed
    transfer: { coin: USDT, from: alpha, to: beta, chains: [tron, bsc] }
  - alert: WithdrawDisabled
    state: withdraw_disabled
    match: { chain: tron }
`;

type Routes = { data: { routes: unknown[]; exchanges: { name: string; disabled: { coin: string; network: string; chain: string | null }[] }[] } };

describe('a transfer route across two reference exchanges', () => {
  let s: Stack;
  beforeAll(async () => {
    s = await stack(RULES, {
      exchanges: [{ name: 'alpha', coins: 20, seed: 1 }, { name: 'beta', coins: 20, seed: 2 }],
      // Per-network series of tron and bsc networks only (the metrics' labels stay DESIGN.md's: no chain label).
      extraConfig: 'metrics:\n  include: { chain: "tron|bsc" }\n',
    });
  });
  afterAll(() => s.close());

  it('fires when no chain is open at both ends, with each chain at both ends, and resolves when one reopens', async () => {
    const [alpha, beta] = [s.sims.get('alpha'), s.sims.get('beta')] as [RunningSimulator, RunningSimulator];
    const daemon = await s.start();
    const url = daemon.url as string;
    const state = async (): Promise<Routes['data']> => ((await (await fetch(`${url}/api/v1/state`)).json()) as Routes).data;
    const chains = (w: [boolean, boolean], d: [boolean, boolean], st: [string, string]) => [
      { chain: 'tron', withdraw: w[0], deposit: d[0], state: st[0] },
      { chain: 'bsc', withdraw: w[1], deposit: d[1], state: st[1] },
    ];
    const route = { alert: 'TransferRouteClosed', coin: 'USDT', from: 'alpha', to: 'beta' };
    await waitFor(async () => (await state()).routes.length === 1 && JSON.stringify((await state()).routes).includes('"open"'), 'both ends polled');
    expect((await state()).routes).toEqual([
      { ...route, state: 'open', open: ['tron', 'bsc'], chains: chains([true, true], [true, true], ['open', 'open']), description: 'tron: withdraw open at alpha, deposit open at beta; bsc: withdraw open at alpha, deposit open at beta' },
    ]);

    // Withdrawals close on tron at alpha; deposits on bsc at beta: no route is left.
    alpha.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false } });
    beta.control.apply({ action: 'set_network', coin: 'USDT', network: 'BNB Smart Chain(BEP20)', set: { depositEnable: false } });
    const transfer = (status: string): WebhookBody['alerts'] =>
      s.bodies().flatMap((b) => b.alerts).filter((a) => a.labels.alertname === 'TransferRouteClosed' && a.status === status);
    await waitFor(() => transfer('firing').length === 1, 'the route closed');
    const description = 'tron: withdraw closed at alpha, deposit open at beta; bsc: withdraw open at alpha, deposit closed at beta';
    expect(transfer('firing')[0]).toMatchObject({
      labels: { alertname: 'TransferRouteClosed', exchange: 'alpha', severity: 'warning', coin: 'USDT', to_exchange: 'beta', kind: 'transfer' },
      annotations: { summary: 'USDT cannot move from alpha to beta: no chain is open at both ends', description },
    });
    expect((await state()).routes).toEqual([{ ...route, state: 'closed', open: [], chains: chains([false, true], [true, false], ['closed', 'closed']), description }]);
    // The chain label: on the network alert (matched by chain) and in /api/v1/state.
    await waitFor(() => s.bodies().some((b) => b.alerts.some((a) => a.labels.alertname === 'WithdrawDisabled')), 'the tron closure told');
    const withdraw = s.bodies().flatMap((b) => b.alerts).find((a) => a.labels.alertname === 'WithdrawDisabled');
    expect(withdraw?.labels).toEqual({ alertname: 'WithdrawDisabled', exchange: 'alpha', severity: 'warning', coin: 'USDT', network: 'Tron(TRC20)', chain: 'tron', kind: 'withdraw_disabled' });
    expect((await state()).exchanges.find((e) => e.name === 'alpha')?.disabled.filter((d) => d.coin === 'USDT')).toEqual([
      expect.objectContaining({ coin: 'USDT', network: 'Tron(TRC20)', chain: 'tron' }),
    ]);
    const metrics = (await (await fetch(`${url}/metrics`)).text()).split('\n').filter((l) => l.startsWith('spotwatch_network_withdraw_enabled{exchange="alpha",coin="USDT"'));
    expect(metrics).toEqual([
      'spotwatch_network_withdraw_enabled{exchange="alpha",coin="USDT",network="Tron(TRC20)"} 0',
      'spotwatch_network_withdraw_enabled{exchange="alpha",coin="USDT",network="BNB Smart Chain(BEP20)"} 1',
    ]);
    const page = await (await fetch(`${url}/`)).text();
    expect(page).toContain('<h2 id="routes">Transfer routes</h2>');
    expect(page).toContain('<td>USDT</td><td>alpha</td><td>beta</td><td class="bad">closed</td><td>—</td><td class="msg" dir="auto">tron: closed / open; bsc: open / closed</td>');

    // Deposits reopen on bsc at beta: a route again, and the alert resolves.
    beta.control.apply({ action: 'set_network', coin: 'USDT', network: 'BNB Smart Chain(BEP20)', set: { depositEnable: true } });
    await waitFor(() => transfer('resolved').length === 1, 'the route reopened');
    expect(transfer('resolved')[0]?.labels).toEqual(transfer('firing')[0]?.labels);
    expect((await state()).routes).toEqual([
      { ...route, state: 'open', open: ['bsc'], chains: chains([false, true], [true, true], ['closed', 'open']), description: 'tron: withdraw closed at alpha, deposit open at beta; bsc: withdraw open at alpha, deposit open at beta' },
    ]);
  });
});
