/**
 * The announcements across a restart (notices.md section 4): the first read of an exchange's
 * announcements is its baseline (nothing told for what was already published); one published
 * afterwards is told once; a restart on the same state_dir neither forgets them (the read after it
 * is no new baseline) nor tells them again; one published after the restart is told once.
 */
import type { RunningSimulator } from '../../src/simulator';
import type { WebhookBody } from '../support/daemon-harness';
import { waitFor } from '../support/wait';
import { dialectStack, exchange, type DialectStack } from './dialects-stack';

jest.setTimeout(60_000);

const RULES = `rules:
  - alert: DelistingAnnounced
    announcement: delisting
`;

async function act(sim: RunningSimulator, actions: unknown[]): Promise<void> {
  const res = await fetch(`${sim.url}/-/sim/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(actions) });
  expect(res.status).toBe(200);
}

let s: DialectStack;
beforeAll(async () => {
  s = await dialectStack('bybit', RULES, async (sim) => {
    // Published before the daemon's first read: the baseline.
    await act(sim, [{ action: 'announce', id: 1, kind: 'delisting', title: 'Will Delist Old Coin (OLD)', url: 'https://ann.test/1' }]);
    return `${exchange('ex', 'bybit', sim.url)}    notices: { poll: 100ms }\n`;
  });
});
afterAll(() => s.close());

/** Each DelistingAnnounced told (firing), as the url of its announcement, in the order told. */
const told = (): string[] =>
  s.hook.received.flatMap((r) => (r.body as WebhookBody).alerts.filter((a) => a.labels.alertname === 'DelistingAnnounced' && a.status === 'firing').map((a) => a.labels.announcement ?? ''));
const read = async (): Promise<string[]> => ((await (await fetch(`${s.url}/api/v1/notices?exchange=ex&kind=announcement`)).json()) as { announcements: { id: string }[] }).announcements.map((a) => a.id);

it('tells nothing for the baseline, tells one published afterwards once, and neither forgets nor tells them again after a restart', async () => {
  await waitFor(async () => (await read()).length === 1, 'the baseline read');
  await act(s.sim, [{ action: 'announce', id: 2, kind: 'delisting', title: 'Will Delist Second Coin (SEC)', url: 'https://ann.test/2' }]);
  await waitFor(() => told().length === 1, 'the announcement published after the baseline told');
  expect(told()).toEqual(['https://ann.test/2']);

  await s.restart();
  // The book is restored before any read: both announcements known at once.
  expect(await read()).toEqual(['https://ann.test/2', 'https://ann.test/1']);
  await act(s.sim, [{ action: 'announce', id: 3, kind: 'delisting', title: 'Will Delist Third Coin (THR)', url: 'https://ann.test/3' }]);
  // The read that finds the third finds the first two in the same list: told by now if ever.
  await waitFor(() => told().length >= 2, 'the announcement published after the restart told');
  expect(told()).toEqual(['https://ann.test/2', 'https://ann.test/3']);
  expect(await read()).toEqual(['https://ann.test/3', 'https://ann.test/2', 'https://ann.test/1']);
});
