/** Scenario steps run when due on the injected clock; the demo timeline undoes all it does. */
import { join } from 'node:path';
import { COINS_PATH, TICKER_PATH } from '../../src/exchange/dialects/spot-v3/wire';
import { loadConfigFile } from '../../src/config';
import { manualClock } from '../../src/lib/clock';
import { createSimulator, loadScenarioFile, parseScenario, startSimulator, type Simulator } from '../../src/simulator';
import { get, getJson, startTestSimulator, T0, type TestSimulator } from '../support/simulator';
import { waitFor } from '../support/wait';
import { capturedLogger } from '../support/log-capture';

type Json = Record<string, unknown>;

const descOf = (sim: Simulator, coin: string, network: string): string | null | undefined =>
  sim.state.coins.get(coin)?.networks.find((n) => n.network === network)?.depositDesc;

describe('the scenario runner, with a manual clock', () => {
  const scenario = parseScenario([
    'steps:',
    '  - { at: 10s, action: set_network, coin: BTC, network: BTC, set: { depositDesc: one } }',
    '  - { at: 10s, action: set_network, coin: BTC, network: BTC, set: { depositDesc: two } }',
    '  - { at: 20s, action: set_network, coin: BTC, network: BTC, set: { depositDesc: three } }',
  ].join('\n'), 'steps.yaml');

  it('applies a step once elapsed time reaches its `at`, never before, each once', () => {
    const clock = manualClock(T0);
    const sim = createSimulator({ coins: 40, clock, scenario });
    clock.advance(9_999);
    expect(sim.control.tick()).toBe(0);
    expect(descOf(sim, 'BTC', 'BTC')).toBeNull();
    clock.advance(1);
    expect(sim.control.tick()).toBe(2);
    expect(descOf(sim, 'BTC', 'BTC')).toBe('two');
    expect(sim.control.tick()).toBe(0);
    clock.advance(60_000);
    expect(sim.control.tick()).toBe(1);
    expect(descOf(sim, 'BTC', 'BTC')).toBe('three');
    expect(sim.control.state().scenario).toMatchObject({ elapsedMs: 70_000, stepsApplied: 3, steps: 3, repeat: null });
  });

  it('loops with `repeat`, and after a jump of many cycles restarts the current one', () => {
    const clock = manualClock(T0);
    const loop = parseScenario('repeat: 1m\nsteps:\n  - { at: 0, action: set_coin, coin: BTC, set: { name: A } }\n  - { at: 30s, action: set_coin, coin: BTC, set: { name: B } }\n', 'loop.yaml');
    const sim = createSimulator({ coins: 40, clock, scenario: loop });
    const name = (): string | undefined => sim.state.coins.get('BTC')?.name;
    expect(sim.control.tick()).toBe(1);
    expect(name()).toBe('A');
    clock.advance(30_000);
    sim.control.tick();
    expect(name()).toBe('B');
    clock.advance(30_000);
    sim.control.tick();
    expect(name()).toBe('A');
    clock.advance(10 * 60_000 + 45_000);
    expect(sim.control.tick()).toBe(2);
    expect(name()).toBe('B');
    expect(sim.control.state().scenario?.cycle).toBe(11);
  });

  it('anchors a step\'s effects at its due time, however late the tick: a fault `for` 30s ends 30s after `at`', async () => {
    const s = parseScenario('steps:\n  - { at: 10s, action: fault, kind: http_500, endpoint: coins, for: 30s }\n', 'late.yaml');
    const sim = await startTestSimulator({ coins: 40, scenario: s });
    try {
      sim.clock.advance(35_000);
      expect((await get(sim.url, COINS_PATH)).status).toBe(500);
      sim.clock.advance(5_000);
      expect((await get(sim.url, COINS_PATH)).status).toBe(200);
    } finally {
      await sim.close();
    }
  });

  it('logs a step naming something that does not exist, with its position, and goes on', () => {
    const clock = manualClock(T0);
    const { lines, logger } = capturedLogger('info');
    const s = parseScenario('steps:\n  - { at: 1s, action: delist_coin, coin: NOPE }\n  - { at: 1s, action: set_coin, coin: BTC, set: { name: ok } }\n', 'w.yaml');
    const sim = createSimulator({ coins: 40, clock, scenario: s, logger });
    clock.advance(1_000);
    expect(sim.control.tick()).toBe(2);
    expect(sim.state.coins.get('BTC')?.name).toBe('ok');
    expect(lines.filter((l) => l.level === 40)).toEqual([
      expect.objectContaining({ msg: 'scenario step skipped', where: 'w.yaml:2:5', action: 'delist_coin', problems: ['unknown coin "NOPE"'] }),
    ]);
  });

  it('runs due steps before answering a request, without any timer', async () => {
    const s = parseScenario('steps:\n  - { at: 5s, action: fault, kind: empty, endpoint: coins }\n', 'f.yaml');
    const sim = await startTestSimulator({ coins: 40, scenario: s });
    try {
      expect((await get(sim.url, COINS_PATH)).text).not.toBe('[]');
      sim.clock.advance(5_000);
      expect((await get(sim.url, COINS_PATH)).text).toBe('[]');
    } finally {
      await sim.close();
    }
  });

  it('ticks on its own on a real clock', async () => {
    const s = parseScenario('steps:\n  - { at: 0, action: set_coin, coin: BTC, set: { name: ticked } }\n', 't.yaml');
    const sim = await startSimulator({ port: 0, coins: 40, scenario: s });
    try {
      await waitFor(() => sim.control.state().scenario?.stepsApplied === 1, 'the timer to apply the step');
    } finally {
      await sim.close();
    }
  });
});

describe('config/scenarios/demo.yaml against the default market', () => {
  let sim: TestSimulator;
  let initial: Json[];
  const { lines, logger } = capturedLogger('info');

  /** Coins with networks in name order: the demo re-adds a network at the end of its coin's list. */
  const normalized = (coins: Json[]): Json[] => coins.map((c) => ({
    ...c, networkList: [...(c.networkList as Json[])].sort((a, b) => String(a.network).localeCompare(String(b.network))),
  }));
  const at = async (ms: number): Promise<void> => {
    sim.clock.set(T0 + ms);
    sim.control.tick();
  };
  const network = async (coin: string, name: string): Promise<Json | undefined> =>
    ((await getJson<Json[]>(sim.url, COINS_PATH)).find((c) => c.coin === coin)?.networkList as Json[] | undefined)?.find((n) => n.network === name);

  beforeAll(async () => {
    const scenario = await loadScenarioFile(join(__dirname, '..', '..', 'config', 'scenarios', 'demo.yaml'));
    sim = await startTestSimulator({ coins: 200, scenario, logger, weightLimit: { max: 100_000, windowMs: 10_000 } });
    initial = await getJson<Json[]>(sim.url, COINS_PATH);
  });
  afterAll(() => sim.close());

  type Notices = { windows: Json[]; announcements: Json[] };
  const notices = (): Promise<Notices> => getJson<Notices>(sim.url, '/-/sim/notices');

  it('announces and closes within the first minute of `npm start`: the window read and the closure seen by the default config\'s polls before 1:00', async () => {
    const scenario = await loadScenarioFile(join(__dirname, '..', '..', 'config', 'scenarios', 'demo.yaml'));
    const loaded = await loadConfigFile(join(__dirname, '..', '..', 'config', 'spotwatch.yaml'), {});
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    const [demo] = loaded.config.exchanges;
    if (demo === undefined || demo.notices === false) throw new Error('the default config reads the demo exchange\'s notices');
    const schedule = scenario.steps.find((s) => s.action.action === 'schedule_maintenance');
    const announce = scenario.steps.find((s) => s.action.action === 'announce');
    const closure = scenario.steps.find((s) => s.action.action === 'set_network' && s.action.network === 'OPTIMISM' && s.action.set.withdrawEnable === false);
    if (schedule?.action.action !== 'schedule_maintenance' || announce === undefined || closure === undefined) throw new Error('the demo has its announced closure');
    const begins = schedule.at + (schedule.action.begins_in ?? 0);
    const ends = begins + (schedule.action.duration ?? Infinity);
    // At the latest: the first poll of each kind at or after the step (both poll at the start, then every interval).
    const seenBy = (at: number, every: number): number => Math.ceil(at / every) * every;
    expect({
      scheduled: schedule.at,
      announced: announce.at,
      windowReadBy: seenBy(schedule.at, demo.notices.poll),
      begins,
      closes: closure.at,
      closureSeenBy: seenBy(closure.at, demo.poll.coins),
      ends,
    }).toEqual({ scheduled: 5_000, announced: 6_000, windowReadBy: 15_000, begins: 30_000, closes: 32_000, closureSeenBy: 40_000, ends: 120_000 });
    // Inside its window, told within a minute (README "Quick start").
    expect(begins <= closure.at && closure.at < ends && seenBy(closure.at, demo.poll.coins) < 60_000).toBe(true);
  });

  // These run in order on one clock that only moves forward, as the timeline does.
  it('0:05 schedules a maintenance window of ETH on Optimism from 0:30 to 2:00; 0:06 announces it naming the coin', async () => {
    await at(6_000);
    const n = await notices();
    expect(n.windows.map((w) => [w.id, w.state, w.scope, w.coins, (w.begins as number) - T0, (w.ends as number) - T0])).toEqual([
      ['demo-eth-optimism', 'scheduled', 'funding', ['ETH'], 30_000, 120_000],
    ]);
    expect(n.announcements.map((a) => [a.id, a.kind, a.title, a.coins, a.published])).toEqual([
      [1, 'maintenance', 'Suspension of Ethereum (ETH) Deposits and Withdrawals on Optimism for a Network Upgrade', ['ETH'], T0 + 6_000],
    ]);
  });

  it('0:15 closes USDT withdrawals on Tron(TRC20) with a message, within the first minute', async () => {
    await at(14_999);
    expect(await network('USDT', 'Tron(TRC20)')).toMatchObject({ withdrawEnable: true, withdrawDesc: null });
    await at(15_000);
    expect(await network('USDT', 'Tron(TRC20)')).toMatchObject({ withdrawEnable: false, withdrawDesc: 'TRC20 wallet maintenance, withdrawals suspended' });
  });

  it('0:20 sets a deposit message on an open network', async () => {
    await at(20_000);
    expect(await network('BTC', 'BTC')).toMatchObject({ depositEnable: true, depositDesc: 'Deposits may be credited late: node synchronisation in progress' });
  });

  it('0:31 lists a coin and its pair', async () => {
    await at(31_000);
    expect((await getJson<Json[]>(sim.url, COINS_PATH)).at(-1)?.coin).toBe('DEMO');
    expect((await getJson<Json>(sim.url, `${TICKER_PATH}?symbol=DEMOUSDT`)).lastPrice).toBe('0.5000000');
  });

  it('0:32 closes ETH on Optimism while its window is ongoing: the announced closure', async () => {
    await at(31_999);
    expect(await network('ETH', 'OPTIMISM')).toMatchObject({ depositEnable: true, withdrawEnable: true });
    await at(32_000);
    expect(await network('ETH', 'OPTIMISM')).toMatchObject({ depositEnable: false, withdrawEnable: false, withdrawDesc: 'Network upgrade: deposits and withdrawals suspended' });
    expect((await notices()).windows.map((w) => w.state)).toEqual(['ongoing']);
  });

  it('0:40 raises a withdrawal fee', async () => {
    await at(40_000);
    expect((await network('ETH', 'ARBITRUM'))?.withdrawFee).toBe('0.0003');
  });

  let solBefore = 0;
  it('0:50 changes the deposit message', async () => {
    await at(45_000);
    solBefore = Number((await getJson<Json>(sim.url, `${TICKER_PATH}?symbol=SOLUSDT`)).lastPrice);
    await at(50_000);
    expect((await network('BTC', 'BTC'))?.depositDesc).toBe('Deposits delayed: node synchronisation, expected to finish within the hour');
  });

  it('0:15-0:38 closed USDT TRC20 withdrawals with no window and no announcement: the unannounced closure', async () => {
    const n = await notices();
    expect(n.windows.flatMap((w) => w.coins)).not.toContain('USDT');
    expect(n.announcements.flatMap((a) => a.coins)).not.toContain('USDT');
  });

  it('1:15 reopens TRC20 withdrawals and clears their message', async () => {
    await at(75_000);
    expect(await network('USDT', 'Tron(TRC20)')).toMatchObject({ withdrawEnable: true, withdrawDesc: null });
  });

  it('1:00-1:30 answers tickers with 503 while coins stay up', async () => {
    await at(89_999);
    expect((await get(sim.url, TICKER_PATH)).status).toBe(503);
    expect((await get(sim.url, COINS_PATH)).status).toBe(200);
    await at(90_000);
    expect((await get(sim.url, TICKER_PATH)).status).toBe(200);
  });

  it('1:30 removes a network; 1:40 clears the deposit message', async () => {
    expect(await network('USDC', 'Polygon(POS)')).toBeUndefined();
    await at(100_000);
    expect((await network('BTC', 'BTC'))?.depositDesc).toBeNull();
  });

  it('0:45-1:45 moves SOLUSDT about 5 % over a minute', async () => {
    await at(105_000);
    const after = Number((await getJson<Json>(sim.url, `${TICKER_PATH}?symbol=SOLUSDT`)).lastPrice);
    expect(after / solBefore).toBeGreaterThan(1.035);
    expect(after / solBefore).toBeLessThan(1.065);
  });

  it('2:00 reopens ETH on Optimism as its window completes', async () => {
    await at(120_000);
    expect(await network('ETH', 'OPTIMISM')).toMatchObject({ depositEnable: true, withdrawEnable: true, withdrawDesc: null });
    expect((await notices()).windows.map((w) => w.state)).toEqual(['completed']);
  });

  it('2:45 closes deposits on DOGE', async () => {
    await at(165_000);
    expect(await network('DOGE', 'DOGE')).toMatchObject({ depositEnable: false, depositDesc: 'Wallet maintenance, deposits suspended' });
  });

  it('has undone everything before the loop restarts at 4:00', async () => {
    await at(239_999);
    expect(normalized(await getJson<Json[]>(sim.url, COINS_PATH))).toEqual(normalized(initial));
    expect((await get(sim.url, `${TICKER_PATH}?symbol=DEMOUSDT`)).status).toBe(400);
  });

  it('starts again after 4 minutes, with every step applied and no warning', async () => {
    await at(240_000 + 15_000);
    expect(await network('USDT', 'Tron(TRC20)')).toMatchObject({ withdrawEnable: false });
    expect(sim.control.state().scenario).toMatchObject({ name: 'demo', cycle: 1, stepsApplied: 24 });
    // The loop schedules its window again under the same id and publishes its announcement once.
    const n = await notices();
    expect(n.windows.map((w) => [w.id, w.state, (w.begins as number) - T0])).toEqual([['demo-eth-optimism', 'scheduled', 270_000]]);
    expect(n.announcements.map((a) => [a.id, a.published])).toEqual([[1, T0 + 246_000]]);
    expect(lines.filter((l) => (l.level as number) >= 40)).toEqual([]);
  });
});
