import type { RunningSimulator } from '../../src/simulator';
import type { SimulatorDialect } from '../../src/simulator/dialects/names';
import type { WebhookBody } from '../support/daemon-harness';
import { waitFor } from '../support/wait';
import type { WebhookReceiver } from '../support/webhook-receiver';
import { dialectStack, exchange, SIGNED, type DialectStack } from './dialects-stack';

/**
 * Every dialect end to end through the daemon: the reference exchange speaks it (renderers
 * built from each exchange's docs and recorded answers, not from the decoders), the daemon
 * reads it with the dialect, and the same four changes raise exactly the alerts the dialect can
 * tell: a withdraw flag flips (and flips back: resolved), a message is set where the dialect
 * carries one (and where it does not, none is read and no alert is made from it), a coin is
 * delisted, a price moves past a level (and back: resolved). A signed dialect given a wrong
 * secret shows the exchange's own refusal in its health and raises nothing.
 */

jest.setTimeout(60_000);

const RULES = `rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    match: { exchange: ex, coin: USDT }
    annotations: { description: "{{withdraw_desc}}" }
  - alert: MessageSet
    change: [deposit_desc_set, withdraw_desc_set]
    match: { exchange: ex }
  - alert: Delisted
    change: coin_delisted
    match: { exchange: ex }
  - alert: BtcAbove
    ticker: last_price
    above: 1000000
    match: { exchange: ex, symbol: BTCUSDT }
    annotations: { description: "{{last_price}}" }
`;

interface Case {
  dialect: Exclude<SimulatorDialect, 'spot-v3'>;
  /** USDT's Tron network as the dialect names it. */
  tron: string;
  /** The messages the dialect carries: withdraw and deposit, deposit only, or none. */
  messages: 'both' | 'deposit' | 'none';
  /** Signed: the exchange's own refusal of a wrong secret, as the poll's error shows it. */
  refusal?: string;
}

const CASES: Case[] = [
  { dialect: 'binance', tron: 'TRX', messages: 'both', refusal: 'coins: HTTP 400 code -1022: Signature for this request is not valid.' },
  { dialect: 'mexc', tron: 'TRX', messages: 'deposit', refusal: 'coins: HTTP 400 code 700002: Signature for this request is not valid.' },
  { dialect: 'okx', tron: 'USDT-TRC20', messages: 'none', refusal: 'coins: HTTP 401 code 50113: Invalid Sign.' },
  { dialect: 'bybit', tron: 'TRX', messages: 'none', refusal: 'coins: HTTP 401 code 10004: error sign! origin_string[<redacted>]' },
  { dialect: 'bitget', tron: 'TRC20', messages: 'none' },
  { dialect: 'kucoin', tron: 'trx', messages: 'none' },
  { dialect: 'gate', tron: 'TRX', messages: 'none' },
  { dialect: 'htx', tron: 'trc20usdt', messages: 'none' },
];

interface Poll {
  ok: boolean;
  kind?: string;
  error?: string;
}
interface StateView {
  name: string;
  up: boolean;
  polls: { coins: Poll | null; tickers: Poll | null };
  coins: number;
  alertsFiring: number;
  disabled: Record<string, unknown>[];
}

describe.each(CASES)('the daemon watching the reference exchange speaking $dialect', (c) => {
  let stack: DialectStack;
  let sim: RunningSimulator;
  let hook: WebhookReceiver;
  let url: string;

  beforeAll(async () => {
    stack = await dialectStack(c.dialect, RULES, (s) => exchange('ex', c.dialect, s.url) + (SIGNED.has(c.dialect) ? exchange('wrong-secret', c.dialect, s.url, { secret: 'not-the-secret' }) : ''));
    ({ sim, hook, url } = stack);
  });

  afterAll(() => stack?.close());

  const alerts = (name: string, status?: string): WebhookBody['alerts'] =>
    hook.received
      .map((r) => r.body as WebhookBody)
      .flatMap((b) => b.alerts)
      .filter((a) => a.labels.alertname === name && (status === undefined || a.status === status));
  const state = async (): Promise<StateView[]> => ((await (await fetch(`${url}/api/v1/state`)).json()) as { data: { exchanges: StateView[] } }).data.exchanges;
  const watched = async (name: string): Promise<StateView | undefined> => (await state()).find((e) => e.name === name);
  /** Waits for `n` more coin polls of `ex` (instead of a sleep, to say nothing more arrived). */
  const polls = async (n: number): Promise<void> => {
    const at = async (): Promise<string> => JSON.stringify((await watched('ex'))?.polls.coins);
    for (let i = 0; i < n; i++) {
      const seen = await at();
      await waitFor(async () => (await at()) !== seen, 'another coin poll');
    }
  };
  /** The closed networks of a coin, as /api/v1/state lists them. */
  const closed = async (coin: string): Promise<Record<string, unknown>[] | undefined> => (await watched('ex'))?.disabled.filter((d) => d.coin === coin);

  it('reads the baseline with nothing firing', async () => {
    await waitFor(async () => (await watched('ex'))?.up === true, 'the exchange polled');
    expect(await watched('ex')).toMatchObject({ up: true, coins: 20, alertsFiring: 0 });
    await polls(2);
    expect(hook.received.map((r) => r.body as WebhookBody).filter((b) => b.groupLabels.exchange === 'ex')).toEqual([]);
  });

  it('a withdraw flag flips with a message: the alert with its chain label, the message where the dialect carries one', async () => {
    const message = 'Wallet maintenance';
    sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false, withdrawDesc: message, depositDesc: message } });
    await waitFor(() => alerts('WithdrawDisabled', 'firing').length === 1, 'the withdraw alert');
    const labels = { alertname: 'WithdrawDisabled', exchange: 'ex', severity: 'warning', coin: 'USDT', network: c.tron, chain: 'tron', kind: 'withdraw_disabled' };
    const withdrawDesc = c.messages === 'both' ? message : null;
    const [firing] = alerts('WithdrawDisabled', 'firing');
    expect(firing?.labels).toEqual(labels);
    expect(firing?.annotations.description).toBe(withdrawDesc ?? '');
    const kinds = { both: ['deposit_desc_set', 'withdraw_desc_set'], deposit: ['deposit_desc_set'], none: [] }[c.messages];
    await waitFor(() => alerts('MessageSet').length === kinds.length, 'the message events');
    await polls(2);
    expect(alerts('MessageSet').map((a) => a.labels).sort((a, b) => String(a.kind).localeCompare(String(b.kind)))).toEqual(
      kinds.map((kind) => ({ alertname: 'MessageSet', exchange: 'ex', severity: 'warning', coin: 'USDT', network: c.tron, chain: 'tron', kind })),
    );
    expect(await closed('USDT')).toEqual([
      { coin: 'USDT', network: c.tron, chain: 'tron', withdrawEnable: false, depositEnable: true, withdrawDesc, depositDesc: c.messages === 'none' ? null : message },
    ]);

    sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: true } });
    await waitFor(() => alerts('WithdrawDisabled', 'resolved').length === 1, 'the withdraw alert resolved');
    expect(alerts('WithdrawDisabled', 'resolved')[0]?.labels).toEqual(labels);
  });

  it('a coin is delisted: one event', async () => {
    sim.control.apply({ action: 'delist_coin', coin: 'XRP' });
    await waitFor(() => alerts('Delisted').length === 1, 'the delisting');
    await polls(2);
    expect(alerts('Delisted').map((a) => a.labels)).toEqual([{ alertname: 'Delisted', exchange: 'ex', severity: 'warning', coin: 'XRP', kind: 'coin_delisted' }]);
  });

  it('a price moves past a level and back: fired with the exact price sent, then resolved', async () => {
    sim.control.apply({ action: 'set_ticker', symbol: 'BTCUSDT', set: { lastPrice: '1234567.5' } });
    await waitFor(() => alerts('BtcAbove', 'firing').length === 1, 'the price alert');
    const labels = { alertname: 'BtcAbove', exchange: 'ex', severity: 'warning', symbol: 'BTCUSDT', kind: 'last_price' };
    expect(alerts('BtcAbove', 'firing')[0]).toMatchObject({ labels, annotations: { description: '1234567.5' } });
    sim.control.apply({ action: 'set_ticker', symbol: 'BTCUSDT', clear: true });
    await waitFor(() => alerts('BtcAbove', 'resolved').length === 1, 'the price alert resolved');
    expect(alerts('BtcAbove', 'resolved')[0]?.labels).toEqual(labels);
  });

  if (c.refusal !== undefined) {
    const refusal = c.refusal;
    it('a wrong secret: the exchange\'s own refusal in the health, down, and no alert', async () => {
      await waitFor(async () => (await watched('wrong-secret'))?.polls.coins !== null, 'a refused poll');
      const bad = await watched('wrong-secret');
      // Its tickers are public and read well; its coins are refused: only the builtin ExchangeDown.
      expect(bad).toMatchObject({ up: false, coins: 0, alertsFiring: 1, polls: { coins: { ok: false, kind: 'http_4xx' }, tickers: { ok: true } } });
      expect(bad?.polls.coins?.error).toBe(refusal);
      await waitFor(() => hook.received.some((r) => (r.body as WebhookBody).groupLabels.exchange === 'wrong-secret'), 'the ExchangeDown alert');
      const told = hook.received.map((r) => r.body as WebhookBody).filter((b) => b.groupLabels.exchange === 'wrong-secret').flatMap((b) => b.alerts);
      expect(told.map((a) => [a.status, a.labels])).toEqual([['firing', { alertname: 'ExchangeDown', exchange: 'wrong-secret', severity: 'critical', endpoint: 'coins' }]]);
    });
  }
});
