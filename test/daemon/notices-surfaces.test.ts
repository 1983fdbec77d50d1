/**
 * Notices on the daemon's surfaces (notices.md section 5): the reference exchange speaking Bybit
 * publishes a maintenance window (its own and its Statuspage's) and an announcement; the daemon
 * shows them in GET /api/v1/notices, counts them in /metrics, and has an entry for each in the
 * Atom feed.
 */
import { waitFor } from '../support/wait';
import { dialectStack, exchange, type DialectStack } from './dialects-stack';

jest.setTimeout(60_000);

let s: DialectStack;
beforeAll(async () => {
  s = await dialectStack('bybit', 'rules: []\n', (sim) => `${exchange('ex', 'bybit', sim.url)}    notices: { poll: 200ms, statuspage: ${sim.url}/-/statuspage }\n`);
});
afterAll(() => s.close());

async function act(actions: unknown[]): Promise<void> {
  const res = await fetch(`${s.sim.url}/-/sim/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(actions) });
  expect(res.status).toBe(200);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
type Notices = { status: unknown[]; maintenance: { id: string; source: string }[]; announcements: { id: string }[] };
const notices = async (query = ''): Promise<Notices> => (await (await fetch(`${s.url}/api/v1/notices${query}`)).json()) as Notices;

it('shows a window and an announcement in GET /api/v1/notices, exactly as the exchange published them', async () => {
  await act([
    { action: 'schedule_maintenance', id: 'w1', title: 'Tether (USDT) wallet maintenance', begins_at: '2030-01-02T03:00:00Z', duration: '90m', scope: 'funding', coins: ['USDT'], url: 'https://status.test/w1' },
    { action: 'announce', id: 7, kind: 'delisting', title: 'Will Delist Tether (USDT) & <ETH>', url: 'https://ann.test/7' },
  ]);
  await waitFor(async () => { const n = await notices(); return n.maintenance.length >= 2 && n.announcements.length >= 1; }, 'the window and the announcement read');
  const sim = (await (await fetch(`${s.sim.url}/-/sim/notices`)).json()) as { announcements: { id: number; published: number }[] };
  const published = new Date(sim.announcements.find((a) => a.id === 7)!.published).toISOString();
  const window = {
    exchange: 'ex', id: 'w1', title: 'Tether (USDT) wallet maintenance', state: 'scheduled', begins: '2030-01-02T03:00:00.000Z', ends: '2030-01-02T04:30:00.000Z',
    origin: 'planned', coins: ['USDT'], symbols: [], url: 'https://status.test/w1',
  };
  const announcement = {
    exchange: 'ex', id: 'https://ann.test/7', kind: 'delisting', title: 'Will Delist Tether (USDT) & <ETH>', url: 'https://ann.test/7', published,
    coins: ['USDT'], symbols: [], chains: [], source: 'bybit-announcements',
  };
  // Bybit's own list says no scope for funding (its serviceTypes are products); the Statuspage's component does.
  expect(await notices()).toEqual({
    status: [{ exchange: 'ex', state: 'normal', message: null, since: expect.stringMatching(RFC3339), checked: expect.stringMatching(RFC3339) }],
    maintenance: [{ ...window, scope: 'unknown', source: 'bybit-status' }, { ...window, scope: 'funding', source: 'statuspage' }],
    announcements: [announcement],
  });
  expect(await notices('?kind=maintenance&coin=USDT&since=2030-01-02T03:00:00Z&limit=1')).toEqual({ status: [], maintenance: [{ ...window, scope: 'unknown', source: 'bybit-status' }], announcements: [] });
  expect(await notices('?kind=announcement&coin=ETH')).toEqual({ status: [], maintenance: [], announcements: [] });
  const bad = await fetch(`${s.url}/api/v1/notices?since=soon`);
  expect([bad.status, await bad.json()]).toEqual([400, { status: 'error', error: 'since: use RFC 3339 or milliseconds since the epoch' }]);
});
