import { stackBehindDouble, type DoubledStack, type Stack } from '../support/daemon-harness';
import { editJson, type ExchangeDouble } from '../support/exchange-double';
import { waitFor } from '../support/wait';
import { metricValue } from '../support/loopback';
import { capturedLogger } from '../support/log-capture';

/**
 * The daemon behind an exchange that sends one network twice, the first copy closed: no
 * change, no alert, no post; a schema error of each such poll, one log line per poll.
 */

jest.setTimeout(60_000);

const RULES = `
rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    match: { coin: USDT }
  - alert: WithdrawChange
    change: [withdraw_disabled, withdraw_enabled]
    match: { coin: USDT }
`;

type Json = Record<string, unknown>;
const TRC = { coin: 'USDT', network: 'Tron(TRC20)' };

describe('a network twice in one coin list', () => {
  let stacked: DoubledStack;
  let s: Stack;
  let double: ExchangeDouble;
  let url: string;
  const { logger, lines: logs } = capturedLogger('warn');

  beforeAll(async () => {
    stacked = await stackBehindDouble(RULES, { coins: 30, logger });
    ({ s, double, url } = stacked);
  });
  afterAll(() => stacked.close());

  const metric = (name: string, labels: string): Promise<number> => metricValue(url, name, labels);

  const schemaErrors = (): Promise<number> => metric('spotwatch_poll_errors_total', 'exchange="main",endpoint="coins",kind="schema"');

  it('raises no change, no alert and no post; counts a schema error and logs one line per poll', async () => {
    const before = await schemaErrors();
    double.respond = async (path, upstream) => {
      const answer = await upstream();
      if (!path.startsWith('/api/v3/coins')) return answer;
      return editJson(answer, (body) => {
        const usdt = (body as Json[]).find((c) => c.coin === TRC.coin) as Json;
        const nets = usdt.networkList as Json[];
        const trc = nets.find((n) => n.network === TRC.network) as Json;
        nets.unshift({ ...trc, withdrawEnable: false, withdrawDesc: 'closed copy' });
      });
    };
    await waitFor(async () => (await schemaErrors()) >= before + 3, 'three polls with the duplicate');
    double.respond = (_path, upstream) => upstream();
    const coinPolls = (): Promise<number> => metric('spotwatch_poll_duration_seconds_count', 'exchange="main",endpoint="coins"');
    // A poll in flight may still carry the copy; after it, two more without it: the copy
    // going must not raise `withdraw_enabled` either.
    const polled = await coinPolls();
    await waitFor(async () => (await coinPolls()) >= polled + 1, 'the poll in flight');
    const during = await schemaErrors();
    await waitFor(async () => (await coinPolls()) >= polled + 3, 'two clean polls');
    expect(await schemaErrors()).toBe(during);

    expect(s.bodies()).toEqual([]);
    const alerts = (await (await fetch(`${url}/api/v1/alerts`)).json()) as { data: unknown[] };
    expect(alerts.data).toEqual([]);
    const changes = (await (await fetch(`${url}/api/v1/changes?coin=USDT`)).json()) as { data: unknown[] };
    expect(changes.data).toEqual([]);
    expect(await metric('spotwatch_network_withdraw_enabled', `exchange="main",coin="USDT",network="Tron(TRC20)"`)).toBe(1);

    const lines = logs.filter((l) => l.msg === 'malformed records kept at their previous values');
    expect(lines.length).toBe(during - before);
    for (const l of lines) {
      expect(l).toMatchObject({ exchange: 'main', endpoint: 'coins', records: 1 });
      expect(l.first).toEqual([{ entity: 'network', ...TRC, index: expect.any(Number), reason: 'network appears twice in networkList with different values' }]);
    }
  });

  it('still tells a real closure (the test above would have seen one)', async () => {
    s.sim.control.apply({ action: 'set_network', ...TRC, set: { withdrawEnable: false } });
    await waitFor(() => s.bodies().some((b) => b.alerts.some((a) => a.labels.alertname === 'WithdrawDisabled' && a.labels.network === TRC.network)), 'the closure alert');
  });
});
