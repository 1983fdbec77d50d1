/**
 * A network answered open and closed in turn (two cache nodes behind one address), through the
 * whole daemon: told once as Flapping, its own alert held while it flaps, told again when it
 * settles.
 */
import { stackBehindDouble, type DoubledStack, type WebhookBody } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

jest.setTimeout(60_000);

const RULES = 'rules:\n  - alert: WithdrawClosed\n    state: withdraw_disabled\n    severity: critical\n';

let stacked: DoubledStack;
beforeAll(async () => {
  stacked = await stackBehindDouble(RULES, { coins: 10, poll: '{ coins: 100ms, tickers: 10s }' });
});
afterAll(() => stacked.close());

/** The first network of a spot-v3 coin list: its coin and network, and the list with its withdraw flag set. */
function firstNetwork(body: string): { coin: string; network: string; withFlag: (open: boolean) => string } {
  const list = JSON.parse(body) as { coin: string; networkList: { network: string }[] }[];
  const coin = list[0]!.coin;
  const network = list[0]!.networkList[0]!.network;
  const at = body.indexOf('"withdrawEnable"');
  const end = body.indexOf(',', at);
  return { coin, network, withFlag: (open) => `${body.slice(0, at)}"withdrawEnable":${String(open)}${body.slice(end)}` };
}

it('tells a network that flaps once as Flapping, holds its WithdrawClosed while it flaps, and tells it again when it settles', async () => {
  const { s, double } = stacked;
  let mode: 'alternate' | 'open' = 'open';
  let served = 0;
  let thing: { coin: string; network: string } | undefined;
  double.respond = async (path, upstream) => {
    const answer = await upstream();
    if (!path.startsWith('/api/v3/coins') || answer.status !== 200) return answer;
    const first = firstNetwork(String(answer.body));
    thing = { coin: first.coin, network: first.network };
    served += 1;
    return { ...answer, body: first.withFlag(mode === 'open' || served % 2 === 0) };
  };
  await waitFor(() => served >= 3, 'the network open for a few polls');
  const alertsOf = (name: string): { status: string; labels: Record<string, string>; annotations: Record<string, string> }[] =>
    s.bodies().flatMap((b: WebhookBody) => b.alerts.filter((a) => a.labels.alertname === name));
  mode = 'alternate';
  await waitFor(() => alertsOf('Flapping').length >= 1, 'the Flapping notification');
  const flapping = alertsOf('Flapping')[0]!;
  expect(flapping.status).toBe('firing');
  expect(flapping.labels).toEqual({ alertname: 'Flapping', exchange: 'main', severity: 'warning', coin: thing!.coin, network: thing!.network });
  expect(flapping.annotations.summary).toBe(`${thing!.coin} on ${thing!.network} is flapping (main): 4 changes in the last 21 polls`);
  // While it flaps, nothing more about WithdrawClosed: it is held as it stood at the fourth change.
  const servedAtFlap = served;
  await waitFor(() => served >= servedAtFlap + 4, 'a few more alternating answers');
  const toldBefore = alertsOf('WithdrawClosed').length;
  const heldFiring = alertsOf('WithdrawClosed').at(-1)?.status === 'firing';
  await waitFor(() => served >= servedAtFlap + 14, 'ten more alternating answers');
  expect(alertsOf('WithdrawClosed').length).toBe(toldBefore);
  expect(alertsOf('Flapping').filter((a) => a.status === 'firing').length).toBe(1);

  // It settles the other way than it was held: Flapping resolves, and WithdrawClosed is told on
  // what the exchange now says (resolved if it was held firing, firing if it was held open).
  double.respond = async (path, upstream) => {
    const answer = await upstream();
    if (!path.startsWith('/api/v3/coins') || answer.status !== 200) return answer;
    served += 1;
    return { ...answer, body: firstNetwork(String(answer.body)).withFlag(heldFiring) };
  };
  await waitFor(() => alertsOf('Flapping').some((a) => a.status === 'resolved'), 'Flapping resolved once the network settled', 30_000);
  const expected = heldFiring ? 'resolved' : 'firing';
  await waitFor(() => alertsOf('WithdrawClosed').slice(toldBefore).some((a) => a.status === expected), `WithdrawClosed told ${expected} once it settled`);
  expect(alertsOf('Flapping').map((a) => a.status)).toEqual(['firing', 'resolved']);
});
