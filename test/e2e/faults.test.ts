import { stack, type Stack } from '../support/daemon-harness';
import { waitFor } from '../support/wait';
import { metricValue } from '../support/loopback';

jest.setTimeout(240_000);

/** Rules that would fire on anything a broken answer could fake: closures, delistings, missing symbols. */
const RULES = `
rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    match: { coin: "USDT|BTC|ETH" }
  - alert: DepositDisabled
    state: deposit_disabled
    match: { coin: "USDT|BTC|ETH" }
  - alert: Listing
    change: [coin_listed, coin_delisted, network_added, network_removed, symbol_listed, symbol_delisted, deposit_disabled, withdraw_disabled]
  - alert: Missing
    ticker: missing
    match: { symbol: "BTCUSDT|ETHUSDT" }
`;

/** Alerts about the exchange itself are expected; anything else during a fault is a false alert. */
const BUILTIN = new Set(['ExchangeDown', 'UpstreamAnomaly']);

describe('upstream faults from the reference exchange', () => {
  let s: Stack;
  let url: string;

  beforeAll(async () => {
    s = await stack(RULES, { coins: 60, exchange: '    timeout: 700ms\n    max_body_bytes: 4MiB\n' });
    url = (await s.start()).url as string;
  });
  afterAll(() => s.close());

  const metric = (name: string, labels: string): Promise<number> => metricValue(url, name, labels);

  async function lastPollOk(endpoint: 'coins' | 'tickers'): Promise<boolean> {
    const state = (await (await fetch(`${url}/api/v1/state`)).json()) as { data: { exchanges: { polls: Record<string, { ok: boolean; at: string }> }[] } };
    return state.data.exchanges[0]?.polls[endpoint]?.ok === true;
  }

  const falseAlerts = (): string[] => s.bodies().flatMap((b) => b.alerts.map((a) => a.labels.alertname ?? '')).filter((n) => !BUILTIN.has(n));

  it.each([
    ['http_500', { kind: 'http_500', status: 503 }, 'http_5xx'],
    ['429 with Retry-After', { kind: 'rate_limit', retry_after: 1 }, 'rate_limited'],
    ['418', { kind: 'ban', retry_after: 1 }, 'banned'],
    ['a timeout', { kind: 'delay', ms: 2000 }, 'timeout'],
    ['a hung body', { kind: 'hang' }, 'timeout'],
    ['a truncated body', { kind: 'truncate' }, 'connect'],
    ['invalid JSON', { kind: 'invalid_json' }, 'invalid_json'],
    ['a wrong shape', { kind: 'wrong_shape' }, 'schema'],
    ['an HTML error page', { kind: 'html' }, 'http_5xx'],
    ['a huge body', { kind: 'huge', bytes: 16 * 1024 * 1024 }, 'body_too_large'],
    ['an empty list', { kind: 'empty' }, 'schema'],
  ])('%s on both endpoints: counted as %s, no false alert, ready again once it ends', async (_name, fault, kind) => {
    const before = {
      coins: await metric('spotwatch_poll_errors_total', `exchange="main",endpoint="coins",kind="${kind}"`),
      tickers: await metric('spotwatch_poll_errors_total', `exchange="main",endpoint="tickers",kind="${kind}"`),
    };
    s.sim.control.resetLimits();
    s.sim.control.addFault({ ...fault, endpoint: 'all' }); // until cleared below
    await waitFor(async () => (await metric('spotwatch_poll_errors_total', `exchange="main",endpoint="coins",kind="${kind}"`)) >= before.coins + 3, `3 coins failures of kind ${kind}`, 60_000);
    await waitFor(async () => (await metric('spotwatch_poll_errors_total', `exchange="main",endpoint="tickers",kind="${kind}"`)) > before.tickers, `a tickers failure of kind ${kind}`, 60_000);
    // Three failures in a row: the exchange is down, and /readyz says so.
    await waitFor(async () => (await fetch(`${url}/readyz`)).status === 503, '/readyz to say 503', 30_000);
    expect(await metric('spotwatch_up', 'exchange="main"')).toBe(0);
    s.sim.control.clearFaults();
    s.sim.control.resetLimits();
    await waitFor(async () => (await lastPollOk('coins')) && (await lastPollOk('tickers')), 'recovery', 60_000);
    await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200, 'ready again', 30_000);
    expect(falseAlerts()).toEqual([]);
  });

  it('malformed records are counted and kept at their previous values, never read as closed or delisted', async () => {
    const before = await metric('spotwatch_malformed_records_total', 'exchange="main",endpoint="coins"');
    s.sim.control.addFault({ kind: 'malformed', endpoint: 'all', records: 10, count: 4 });
    await waitFor(async () => (await metric('spotwatch_malformed_records_total', 'exchange="main",endpoint="coins"')) > before, 'malformed records counted', 30_000);
    s.sim.control.clearFaults();
    await waitFor(async () => (await lastPollOk('coins')) && (await lastPollOk('tickers')), 'recovery', 30_000);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(falseAlerts()).toEqual([]);
  });

  it('after all that, a real change is detected as usual, and nothing false ever fired', async () => {
    s.sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false } });
    // Two groups, two deliveries: the state alert and the change event.
    await waitFor(() => falseAlerts().includes('WithdrawDisabled') && falseAlerts().includes('Listing'), 'the real alert and its event');
    expect(falseAlerts().sort()).toEqual(['Listing', 'WithdrawDisabled']);
    const names = s.bodies().flatMap((b) => b.alerts.map((a) => `${a.status} ${a.labels.alertname}`));
    // The exchange's own alerts fired and resolved around each fault.
    expect(names).toContain('firing ExchangeDown');
    expect(names).toContain('resolved ExchangeDown');
  });
});
