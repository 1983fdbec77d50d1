/**
 * OKX's maintenance list drops a window once it is over, and names no id: the read that no
 * longer lists a known window asks OKX's completed and canceled lists at once (5 s apart: its
 * limit, which also holds from one read to the next), and takes what they say. OKX's status
 * endpoint is a request-logging double written from OKX's docs (test/support/doubles/okx-status.ts)
 * in front of the reference exchange, which answers the rest.
 */
import type { WebhookBody } from '../support/daemon-harness';
import { OKX_STATUS_GAP_MS, OKX_STATUS_PATH, OkxStatusBoard } from '../support/doubles/okx-status';
import { ExchangeDouble } from '../support/exchange-double';
import { waitFor } from '../support/wait';
import { dialectStack, exchange, type DialectStack } from './dialects-stack';

jest.setTimeout(90_000);

const H = 3_600_000;
const board = new OkxStatusBoard();
let double: ExchangeDouble;
let s: DialectStack;
beforeAll(async () => {
  s = await dialectStack('okx', 'rules:\n  - alert: MaintenanceNow\n    maintenance: ongoing\n  - alert: MaintenanceSoon\n    maintenance: scheduled\n', async (sim) => {
    double = await new ExchangeDouble(sim.url).start();
    double.respond = (path, upstream) => board.answer(path) ?? upstream();
    return `${exchange('ex', 'okx', double.url)}    notices: { poll: 200ms }\n`;
  });
});
afterAll(async () => {
  await s.close();
  await double.stop();
});

const windows = async (): Promise<[string, string][]> => {
  const body = (await (await fetch(`${s.url}/api/v1/notices?exchange=ex&kind=maintenance`)).json()) as { maintenance: { title: string; state: string }[] };
  return body.maintenance.map((w) => [w.title, w.state] as [string, string]).sort();
};
const told = (): string[] => s.hook.received.flatMap((r) => (r.body as WebhookBody).alerts.map((a) => `${a.status} ${a.labels.alertname}`));

it('settles a completed and a canceled window in the very read that no longer lists them, asking each finished list once, never sooner than 5 s', async () => {
  const now = Date.now();
  board.windows = [
    { title: 'Spot system upgrade', state: 'ongoing', begin: now - H, end: now + H },
    { title: 'Unified account upgrade', state: 'scheduled', begin: now + 2 * H, end: now + 3 * H },
  ];
  await waitFor(async () => JSON.stringify(await windows()) === JSON.stringify([['Spot system upgrade', 'ongoing'], ['Unified account upgrade', 'scheduled']]), 'both windows known', 30_000);
  await waitFor(() => told().includes('firing MaintenanceNow') && told().includes('firing MaintenanceSoon'), 'both told');

  const before = board.asked.length;
  board.windows = [
    { title: 'Spot system upgrade', state: 'completed', begin: now - H, end: Date.now() },
    { title: 'Unified account upgrade', state: 'canceled', begin: now + 2 * H, end: now + 3 * H },
  ];
  await waitFor(async () => JSON.stringify(await windows()) === JSON.stringify([['Spot system upgrade', 'completed'], ['Unified account upgrade', 'canceled']]), 'completed and canceled, as OKX says', 40_000);
  // The first read after the change asked both finished lists: nothing was left ongoing or scheduled for a read more.
  expect(board.paths().slice(before, before + 3)).toEqual([OKX_STATUS_PATH, `${OKX_STATUS_PATH}?state=completed`, `${OKX_STATUS_PATH}?state=canceled`]);
  await waitFor(() => told().includes('resolved MaintenanceNow') && told().includes('resolved MaintenanceSoon'), 'both resolved');
  // OKX's limit held throughout (the double refuses a request within 5 s of the last with 429).
  expect(board.asked.filter((a) => a.status !== 200)).toEqual([]);
  const gaps = board.asked.slice(1).map((a, i) => a.at - board.asked[i]!.at);
  expect(Math.min(...gaps)).toBeGreaterThanOrEqual(OKX_STATUS_GAP_MS);
});
