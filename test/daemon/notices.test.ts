/**
 * Notices end to end (notices.md): the reference exchange speaking Bybit publishes a maintenance
 * window (through its Statuspage: Bybit's own windows carry no funding scope) and an announcement
 * through Bybit's own endpoints; the daemon reads them every
 * `notices.poll`, the rules over them fire, and a closure inside the window is told as explained
 * while one outside it is told as unannounced.
 */
import type { WebhookBody } from '../support/daemon-harness';
import { waitFor } from '../support/wait';
import { dialectStack, exchange, type DialectStack } from './dialects-stack';

jest.setTimeout(60_000);

const RULES = `rules:
  - alert: WithdrawClosed
    state: withdraw_disabled
    match: { coin: "USDT|ETH" }
  - alert: UnannouncedWithdrawClosure
    state: withdraw_disabled
    unannounced: true
    match: { coin: "USDT|ETH" }
  - alert: MaintenanceSoon
    maintenance: scheduled
    within: 24h
  - alert: MaintenanceNow
    maintenance: ongoing
  - alert: DelistingAnnounced
    announcement: delisting
`;

let s: DialectStack;
beforeAll(async () => {
  s = await dialectStack('bybit', RULES, (sim) => `${exchange('ex', 'bybit', sim.url)}    notices: { poll: 200ms, statuspage: ${sim.url}/-/statuspage }\n`);
});
afterAll(() => s.close());

type Told = { status: string; labels: Record<string, string>; annotations: Record<string, string> };
const told = (name: string): Told[] => s.hook.received.flatMap((r) => (r.body as WebhookBody).alerts.filter((a) => a.labels.alertname === name));

async function act(actions: unknown[]): Promise<void> {
  const res = await fetch(`${s.sim.url}/-/sim/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(actions) });
  expect(res.status).toBe(200);
}

it('reads a window and an announcement from the exchange, fires their rules, and tells a closure inside the window as explained and one outside as unannounced', async () => {
  // The first read of the announcements is the baseline: give it time to be taken.
  await waitFor(async () => ((await (await fetch(`${s.url}/api/v1/state`)).json()) as { data: { exchanges: unknown[] } }).data.exchanges.length === 1, 'the exchange watched');
  await act([{ action: 'schedule_maintenance', id: 'w1', title: 'Tether (USDT) wallet maintenance', begins_in: '2h', duration: '1h', scope: 'funding', coins: ['USDT'] }]);
  await waitFor(() => told('MaintenanceSoon').length === 1, 'MaintenanceSoon');
  expect(told('MaintenanceSoon')[0]!.labels).toEqual({ alertname: 'MaintenanceSoon', exchange: 'ex', severity: 'warning', maintenance: 'w1' });
  expect(told('MaintenanceSoon')[0]!.annotations.title).toBe('Tether (USDT) wallet maintenance');

  await act([{ action: 'start_maintenance', id: 'w1' }]);
  await waitFor(() => told('MaintenanceNow').length >= 1 && told('MaintenanceSoon').some((a) => a.status === 'resolved'), 'MaintenanceNow, MaintenanceSoon resolved');
  expect(told('MaintenanceNow').map((a) => [a.status, a.labels.maintenance])).toEqual([['firing', 'w1']]);

  // USDT closes inside its window: explained. ETH closes with no notice: unannounced.
  await act([
    { action: 'set_network', coin: 'USDT', network: 'TRX', set: { withdrawEnable: false } },
    { action: 'set_network', coin: 'ETH', network: 'ETH', set: { withdrawEnable: false } },
  ]);
  await waitFor(() => told('WithdrawClosed').length === 2 && told('UnannouncedWithdrawClosure').length === 1, 'both closures told');
  const notices = Object.fromEntries(told('WithdrawClosed').map((a) => [a.labels.coin, a.annotations.notice]));
  expect(notices).toEqual({ USDT: expect.stringMatching(/^Tether \(USDT\) wallet maintenance/) as unknown as string, ETH: 'none' });
  expect(told('UnannouncedWithdrawClosure').map((a) => [a.labels.coin, a.status])).toEqual([['ETH', 'firing']]);

  // A delisting announced afterwards: one event; and ETH's closure is now explained by it.
  await act([{ action: 'announce', kind: 'delisting', coins: ['ETH'] }]);
  await waitFor(() => told('DelistingAnnounced').length === 1, 'DelistingAnnounced');
  await waitFor(() => told('UnannouncedWithdrawClosure').some((a) => a.status === 'resolved'), 'the unannounced closure resolved once a notice explains it');
  expect(told('DelistingAnnounced')[0]!.labels.announcement).toEqual(expect.any(String));
});
