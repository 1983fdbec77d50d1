/**
 * OKX's maintenance list drops a window once it is over, and names no id: the daemon asks OKX's
 * completed and canceled lists (5 s apart: its limit) when a known window leaves the list, and
 * takes what they say — never a guess (notices.md sections 1 and 6).
 */
import type { WebhookBody } from '../support/daemon-harness';
import { waitFor } from '../support/wait';
import { dialectStack, exchange, type DialectStack } from './dialects-stack';

jest.setTimeout(60_000);

let s: DialectStack;
beforeAll(async () => {
  s = await dialectStack('okx', 'rules:\n  - alert: MaintenanceNow\n    maintenance: ongoing\n  - alert: MaintenanceSoon\n    maintenance: scheduled\n', (sim) => `${exchange('ex', 'okx', sim.url)}    notices: { poll: 200ms }\n`);
});
afterAll(() => s.close());

const act = async (actions: unknown[]): Promise<void> => {
  const res = await fetch(`${s.sim.url}/-/sim/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(actions) });
  expect(res.status).toBe(200);
};
const windows = async (): Promise<[string, string, string][]> => {
  const body = (await (await fetch(`${s.url}/api/v1/notices?exchange=ex&kind=maintenance`)).json()) as { maintenance: { title: string; state: string; source: string }[] };
  return body.maintenance.map((w) => [w.title, w.state, w.source] as [string, string, string]).sort();
};
const told = (): string[] => s.hook.received.flatMap((r) => (r.body as WebhookBody).alerts.map((a) => `${a.status} ${a.labels.alertname}`));

it('asks where a window went when it leaves the list: one completed, one canceled, each as OKX says', async () => {
  await act([
    { action: 'schedule_maintenance', id: 'w1', title: 'Spot system upgrade', duration: '1h', scope: 'trading' },
    { action: 'schedule_maintenance', id: 'w2', title: 'Unified account upgrade', begins_in: '2h', duration: '1h', scope: 'trading' },
  ]);
  await waitFor(async () => JSON.stringify(await windows()) === JSON.stringify([['Spot system upgrade', 'ongoing', 'okx-status'], ['Unified account upgrade', 'scheduled', 'okx-status']]), 'both windows known');
  await waitFor(() => told().includes('firing MaintenanceNow') && told().includes('firing MaintenanceSoon'), 'both told');

  await act([{ action: 'complete_maintenance', id: 'w1' }, { action: 'cancel_maintenance', id: 'w2' }]);
  // The follow-up requests are 5 s apart (OKX's limit): two of them after the plain list.
  await waitFor(async () => JSON.stringify(await windows()) === JSON.stringify([['Spot system upgrade', 'completed', 'okx-status'], ['Unified account upgrade', 'canceled', 'okx-status']]), 'completed and canceled, as OKX says', 30_000);
  await waitFor(() => told().includes('resolved MaintenanceNow') && told().includes('resolved MaintenanceSoon'), 'both resolved');
});
