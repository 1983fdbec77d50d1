/**
 * The poll path's decision, driven with literal inputs and held against exact outputs: no
 * timers, no daemon, no store. Each table row is one call of `step` on the state the row before
 * left (as the poll path chains them).
 */
import type { Alert } from '../../src/alerts/alert';
import { alertsOf } from '../../src/alerts/lifecycle';
import { configure, initialState, type PollState, type StepSettings } from '../../src/poll/state';
import { step, type StepInput, type StepResult } from '../../src/poll/step';
import type { CoinRecord, TickerRecord } from '../../src/snapshot/model';
import { coinRecord, tickerRecord } from '../support/records';
import { rulesFrom } from '../support/rules-harness';
import { DEFAULT_SETTINGS } from '../support/poll-settings';

const usdt = (withdrawEnable: boolean, more: Parameters<typeof coinRecord>[1] = []): CoinRecord => coinRecord('USDT', [{ network: 'TRX', withdrawEnable }, ...more]);
const coins = (exchange: string, ...records: CoinRecord[]): StepInput => ({ type: 'answer', exchange, endpoint: 'coins', answer: { records, issues: [] } });
const tickers = (exchange: string, ...records: TickerRecord[]): StepInput => ({ type: 'answer', exchange, endpoint: 'tickers', answer: { records, issues: [] } });

function settings(rules: string, over: Partial<StepSettings> = {}): StepSettings {
  return { ...DEFAULT_SETTINGS, rules: rulesFrom(rules), guards: new Map([['main', { maxShrink: 0.2, confirmPolls: 2, confirmMs: 0 }]]), ...over };
}

/** Runs the inputs one after the other; returns each result. */
function run(state: PollState, inputs: readonly [StepInput, number][]): StepResult[] {
  const out: StepResult[] = [];
  for (const [input, now] of inputs) {
    const r = step(state, input, now);
    out.push(r);
    state = r.state;
  }
  return out;
}

/** What a result tells and writes, in words. */
function said(r: StepResult): { outcome: string; changes: string[]; transitions: string[]; tell: string[]; write: string[] | undefined } {
  const w = r.effects.write;
  return {
    outcome: r.outcome,
    changes: r.changes.map((c) => `${c.kind} ${c.coin ?? c.symbol ?? ''}${c.network ? `/${c.network}` : ''} ${String(c.before)} -> ${String(c.after)}`),
    transitions: r.transitions.map((t) => `${t.to} ${t.alert.labels.alertname}`),
    tell: r.effects.tell.map((a) => `${a.status} ${a.labels.alertname}`),
    write:
      w === undefined
        ? undefined
        : [
            ...(w.changes.length > 0 ? [`changes ${w.changes.length}`] : []),
            ...(w.snapshot !== undefined ? [`snapshot ${w.snapshot.part}`] : []),
            ...(w.samples !== undefined ? [`samples ${w.samples.samples.size}`] : []),
            ...w.alerts.set.map((a) => `set ${a.fingerprint}`),
            ...w.alerts.removed.map((fp) => `removed ${fp}`),
          ],
  };
}

const WITHDRAW = 'rules:\n  - alert: WithdrawClosed\n    state: withdraw_disabled\n    severity: critical\n  - alert: WithdrawClosing\n    change: withdraw_disabled\n';

describe('step: an answer, from the baseline to an alert and back', () => {
  it('takes the first answer as the baseline, then decides, writes and tells each change once', () => {
    const results = run(initialState(settings(WITHDRAW)), [
      [coins('main', usdt(true)), 1000],
      [coins('main', usdt(false)), 2000],
      [coins('main', usdt(false)), 3000],
      [coins('main', usdt(true)), 4000],
    ]);
    expect(results.map(said)).toEqual([
      { outcome: 'accepted', changes: [], transitions: [], tell: [], write: ['snapshot coins'] },
      {
        outcome: 'accepted',
        changes: ['withdraw_all_disabled USDT true -> false', 'withdraw_disabled USDT/TRX true -> false'],
        transitions: ['firing WithdrawClosed', 'event WithdrawClosing'],
        tell: ['firing WithdrawClosed', 'firing WithdrawClosing'],
        write: ['changes 2', 'snapshot coins', 'set 25e4530ace87ecee'],
      },
      // The same records (another answer of the same text): nothing new, nothing written.
      { outcome: 'accepted', changes: [], transitions: [], tell: [], write: undefined },
      {
        outcome: 'accepted',
        changes: ['withdraw_all_enabled USDT false -> true', 'withdraw_enabled USDT/TRX false -> true'],
        transitions: ['resolved WithdrawClosed'],
        tell: ['resolved WithdrawClosed'],
        write: ['changes 2', 'snapshot coins', 'removed 25e4530ace87ecee'],
      },
    ]);
    const firing: Alert = {
      fingerprint: '25e4530ace87ecee',
      ruleId: expect.stringMatching(/^WithdrawClosed:[0-9a-f]{12}$/) as unknown as string,
      entity: 'main\u0000USDT\u0000TRX',
      labels: { alertname: 'WithdrawClosed', exchange: 'main', severity: 'critical', coin: 'USDT', network: 'TRX', chain: 'tron', kind: 'withdraw_disabled' },
      annotations: { summary: 'USDT withdrawals disabled on TRX (main)', description: 'No message from the exchange.', notice: 'none' },
      status: 'firing',
      activeAt: 2000,
      startsAt: 2000,
      endsAt: null,
      lastActiveAt: 2000,
      lastNotifiedAt: 2000,
      value: 1,
      event: false,
    };
    expect(results[1]?.effects.tell[0]).toEqual(firing);
    expect(results[1]?.effects.tell[1]).toEqual({
      fingerprint: '39bf723d7ada2095',
      ruleId: expect.stringMatching(/^WithdrawClosing:/) as unknown as string,
      entity: 'main\u0000USDT\u0000TRX\u0000\u0000withdraw_disabled\u00002000',
      labels: { alertname: 'WithdrawClosing', exchange: 'main', severity: 'warning', coin: 'USDT', network: 'TRX', chain: 'tron', kind: 'withdraw_disabled' },
      annotations: { summary: 'USDT on TRX: withdraw disabled (main)', description: 'withdraw disabled: true -> false' },
      status: 'firing',
      activeAt: 2000,
      startsAt: 2000,
      endsAt: null,
      lastActiveAt: 2000,
      lastNotifiedAt: 2000,
      value: null,
      event: true,
    });
    expect(results[3]?.effects.tell[0]).toEqual({ ...firing, status: 'resolved', endsAt: 4000, lastNotifiedAt: 4000 });
    // The alert the store is told to write is the one told.
    expect(results[1]?.effects.write?.alerts.set).toEqual([firing]);
  });

  it('writes nothing for an answer whose records are the very ones it holds', () => {
    const records = [usdt(false)];
    const [, second] = run(initialState(settings(WITHDRAW)), [
      [coins('main', ...records), 1000],
      [{ type: 'answer', exchange: 'main', endpoint: 'coins', answer: { records, issues: [] } }, 2000],
    ]);
    expect(second?.effects).toEqual({ write: undefined, tell: [], log: [] });
    expect(second?.state.exchanges.get('main')?.snapshot.coinsAt).toBe(2000);
  });

  it('fires a pending alert once `for` has passed, though the answer never changes', () => {
    const rules = 'rules:\n  - alert: DepositSlow\n    state: deposit_disabled\n    for: 1m\n';
    const closed = [coinRecord('USDT', [{ network: 'TRX', depositEnable: false }])];
    const same = { type: 'answer', exchange: 'main', endpoint: 'coins', answer: { records: closed, issues: [] } } as const;
    const results = run(initialState(settings(rules)), [
      [coins('main', coinRecord('USDT', [{ network: 'TRX' }])), 0],
      [same, 1000],
      [same, 30_000],
      [same, 61_000],
      [same, 90_000],
    ]);
    expect(results.map((r) => r.transitions.map((t) => `${t.to} ${t.alert.status} ${t.alert.startsAt}`))).toEqual([[], ['pending pending null'], [], ['firing firing 61000'], []]);
    expect(results[3]?.effects.write?.alerts.set.map((a) => a.fingerprint)).toEqual(['07c7dbccfc64b8cf']);
  });
});

describe('step: failures, the guard and the store', () => {
  it('counts failed polls and an empty list as failures: ExchangeDown fires at the third, resolves at the next answer', () => {
    const results = run(initialState(settings('rules: []\n')), [
      [coins('main', usdt(true)), 1],
      [{ type: 'failure', exchange: 'main', endpoint: 'coins', error: 'coins: timed out' }, 2],
      [coins('main'), 3],
      [{ type: 'failure', exchange: 'main', endpoint: 'coins', error: 'coins: HTTP 502' }, 4],
      [coins('main', usdt(true)), 5],
    ]);
    expect(results.map((r) => [r.outcome, r.state.exchanges.get('main')?.failures.coins, ...r.effects.tell.map((a) => `${a.status} ${a.labels.alertname} ${a.annotations.summary}`)])).toEqual([
      ['accepted', 0],
      ['failed', 1],
      ['empty', 2],
      ['failed', 3, 'firing ExchangeDown main coins polls failing: coins: HTTP 502'],
      ['accepted', 0, 'resolved ExchangeDown main coins polls failing: coins: HTTP 502'],
    ]);
    // The empty list was not taken: the snapshot is the first answer's.
    expect(results[2]?.state.exchanges.get('main')?.snapshot.coinsAt).toBe(1);
    expect(results[3]?.effects.tell[0]?.fingerprint).toBe('5f1bf5596ea2c3cb');
  });

  it('keeps an ExchangeDown from before a restart firing through the failures after it, and resolves it with the startsAt it fired with', () => {
    const fired = run(initialState(settings('rules: []\n')), [
      [{ type: 'failure', exchange: 'main', endpoint: 'coins', error: 'coins: HTTP 502' }, 1000],
      [{ type: 'failure', exchange: 'main', endpoint: 'coins', error: 'coins: HTTP 502' }, 2000],
      [{ type: 'failure', exchange: 'main', endpoint: 'coins', error: 'coins: HTTP 502' }, 3000],
    ]);
    const down = [...alertsOf(fired[2]!.state.alerts)];
    expect(down.map((a) => [a.labels.alertname, a.status, a.startsAt])).toEqual([['ExchangeDown', 'firing', 3000]]);
    // A restart: the store gives back the firing alert; the count of failures starts again at 0.
    const results = run(initialState(settings('rules: []\n'), new Map(), down), [
      [{ type: 'failure', exchange: 'main', endpoint: 'coins', error: 'coins: timed out' }, 60_000],
      [{ type: 'failure', exchange: 'main', endpoint: 'coins', error: 'coins: timed out' }, 61_000],
      [coins('main', usdt(true)), 62_000],
    ]);
    expect(results.map((r) => r.transitions.map((t) => `${t.to} ${t.alert.labels.alertname} startsAt ${t.alert.startsAt} endsAt ${t.alert.endsAt}`))).toEqual([
      [],
      [],
      ['resolved ExchangeDown startsAt 3000 endsAt 62000'],
    ]);
  });

  it('holds a list that shrank suddenly as suspect (UpstreamAnomaly) until it persists, then takes it', () => {
    const four = ['A', 'B', 'C', 'D'].map((c) => coinRecord(c, [{ network: 'X' }]));
    const results = run(initialState(settings(WITHDRAW)), [
      [coins('main', ...four), 1],
      [coins('main', four[0] as CoinRecord), 2],
      [coins('main', four[0] as CoinRecord), 3],
    ]);
    expect(results.map((r) => [r.outcome, r.changes.length, r.state.exchanges.get('main')?.snapshot.coins.size, ...r.transitions.map((t) => `${t.to} ${t.alert.labels.alertname}`)])).toEqual([
      ['accepted', 0, 4],
      ['held', 0, 4, 'firing UpstreamAnomaly'],
      ['accepted', 3, 1, 'resolved UpstreamAnomaly'],
    ]);
    expect(results[1]?.effects.log).toEqual([{ level: 'warn', msg: 'answer shrank suddenly; held as suspect', fields: { exchange: 'main', endpoint: 'coins', since: 2, polls: 1, before: '4/4', after: '1/1' } }]);
    expect(results[2]?.effects.log).toEqual([{ level: 'warn', msg: 'suspect answer persisted; taking it as real', fields: { exchange: 'main', endpoint: 'coins', since: 2, polls: 2, before: '4/4', after: '1/1' } }]);
    expect(results[1]?.effects.tell[0]?.annotations.summary).toBe('main coins answer shrank from 4/4 to 1/1: held as suspect');
  });

  it('fires StoreFailing at the first write that fails and resolves it at the first that succeeds, once each', () => {
    const results = run(initialState(settings('rules: []\n')), [
      [coins('main', usdt(true)), 1],
      [{ type: 'written', exchange: 'main', error: 'database or disk is full' }, 2],
      [{ type: 'written', exchange: 'main', error: 'database or disk is full' }, 3],
      [{ type: 'written', exchange: 'main', error: undefined }, 4],
      [{ type: 'written', exchange: 'main', error: undefined }, 5],
    ]);
    expect(results.map((r) => r.effects.tell.map((a) => `${a.status} ${a.labels.alertname} ${a.fingerprint}`))).toEqual([[], ['firing StoreFailing fd5797cce989fe11'], [], ['resolved StoreFailing fd5797cce989fe11'], []]);
    expect(results[1]?.effects.tell[0]?.annotations.description).toBe('Writes fail: database or disk is full. Notifications are held in memory and change history is queued until the store takes writes again.');
  });

  it('resolves the alerts of an exchange no longer watched, and only those', () => {
    const results = run(initialState(settings(WITHDRAW, { guards: new Map() })), [
      [coins('main', usdt(false)), 1],
      [coins('other', usdt(false)), 1],
      [{ type: 'drop', exchange: 'main' }, 2],
    ]);
    expect(said(results[2] as StepResult)).toEqual({ outcome: 'dropped', changes: [], transitions: ['resolved WithdrawClosed'], tell: ['resolved WithdrawClosed'], write: ['removed 25e4530ace87ecee'] });
    const left = results[2]?.state as PollState;
    expect([...left.exchanges.keys()]).toEqual(['other']);
    expect([...alertsOf(left.alerts)].map((a) => `${a.labels.exchange} ${a.labels.alertname}`)).toEqual(['other WithdrawClosed']);
  });
});

describe('step: the rules', () => {
  it('judges a transfer route when either end changes, from the other exchange\'s snapshot in the state', () => {
    const rules = 'rules:\n  - alert: Route\n    transfer: { coin: USDT, from: a, to: b }\n';
    const open = coinRecord('USDT', [{ network: 'TRX' }]);
    const noDeposit = coinRecord('USDT', [{ network: 'TRX', depositEnable: false }]);
    const results = run(initialState(settings(rules, { guards: new Map() })), [
      [coins('a', open), 1],
      [coins('b', open), 2],
      [coins('b', noDeposit), 3],
      [coins('a', open), 4],
      [coins('b', open), 5],
    ]);
    expect(results.map((r) => r.transitions.map((t) => `${t.to} ${t.alert.labels.exchange} ${t.alert.annotations.description}`))).toEqual([
      [],
      [],
      ['firing a tron: withdraw open at a, deposit closed at b'],
      [],
      ['resolved a tron: withdraw open at a, deposit closed at b'],
    ]);
    expect(results[2]?.effects.tell[0]?.fingerprint).toBe('f822518b3cbc05a0');
  });

  it('resolves the alerts of a rule that is gone at the next answer after new settings', () => {
    const start = initialState(settings(WITHDRAW));
    const [first] = run(start, [[coins('main', usdt(false)), 1]]);
    const reloaded = configure((first as StepResult).state, settings('rules: []\n'));
    const [next] = run(reloaded, [[coins('main', usdt(false)), 2]]);
    expect(said(next as StepResult)).toEqual({ outcome: 'accepted', changes: [], transitions: ['resolved WithdrawClosed'], tell: ['resolved WithdrawClosed'], write: ['removed 25e4530ace87ecee'] });
  });

  it('judges every rule again after a start, though the first answer equals the stored snapshot', () => {
    const [first] = run(initialState(settings('rules: []\n')), [[coins('main', usdt(false)), 1]]);
    const stored = (first as StepResult).state.exchanges.get('main')?.snapshot;
    // A restart with a rule the last run did not have: the restored snapshot already shows the closure.
    const [next] = run(initialState(settings(WITHDRAW), new Map([['main', { snapshot: stored }]])), [[coins('main', usdt(false)), 2]]);
    expect(said(next as StepResult).tell).toEqual(['firing WithdrawClosed']);
  });

  it('samples the tickers a rule measures over time, and measures the move from them', () => {
    const rules = 'rules:\n  - alert: FastMove\n    ticker: move_percent\n    window: 1m\n    above: 3\n    match: { symbol: BTCUSDT }\n';
    const at = (price: string): StepInput => tickers('main', tickerRecord('BTCUSDT', { lastPrice: price }), tickerRecord('ETHUSDT', { lastPrice: price }));
    const results = run(initialState(settings(rules)), [
      [at('100'), 0],
      [at('101'), 30_000],
      [at('104'), 60_000],
    ]);
    expect(results.map((r) => [...(r.state.exchanges.get('main')?.samples.keys() ?? [])])).toEqual([['BTCUSDT'], ['BTCUSDT'], ['BTCUSDT']]);
    expect(results.map((r) => r.effects.tell.map((a) => `${a.labels.symbol} ${a.annotations.summary}`))).toEqual([[], [], ['BTCUSDT BTCUSDT moved 4 % within 60s (main)']]);
    // The samples are written with the first ticker answer, then once a minute.
    expect(results.map((r) => r.effects.write?.samples?.samples.get('BTCUSDT')?.samples.length)).toEqual([1, undefined, 3]);
  });
});

describe('step is pure', () => {
  it('leaves the state it was given as it was, and gives the same result for the same input', () => {
    const base = run(initialState(settings(WITHDRAW)), [[coins('main', usdt(true)), 1]])[0]?.state as PollState;
    const before = JSON.stringify(dump(base));
    const input = coins('main', usdt(false));
    const a = step(base, input, 2);
    const b = step(base, input, 2);
    expect(JSON.stringify(dump(base))).toBe(before);
    expect(said(a)).toEqual(said(b));
    expect(a.effects.tell).toEqual(b.effects.tell);
  });
});

/** A state as plain data (maps as entries), to compare. */
function dump(state: PollState): unknown {
  return JSON.parse(JSON.stringify(state, (_k, v: unknown) => (v instanceof Map ? [...(v as Map<unknown, unknown>)] : v instanceof Set ? [...(v as Set<unknown>)] : v)));
}

describe('step: a network that flaps', () => {
  // Two cache nodes answering open and closed in turn, a poll every second.
  const alternating = (from: number, count: number, start: boolean): [StepInput, number][] =>
    Array.from({ length: count }, (_, i) => [coins('main', usdt(i % 2 === 0 ? start : !start)), from + i * 1000]);

  it('is told once as flapping, its own alerts held as they were, and told again when it settles', () => {
    const results = run(initialState(settings(WITHDRAW)), [
      [coins('main', usdt(true)), 1000],
      ...alternating(2000, 8, false), // closed, open, closed, open (flaps), closed, open, closed, open
      ...Array.from({ length: 20 }, (_, i): [StepInput, number] => [coins('main', usdt(false)), 10_000 + i * 1000]),
    ]);
    const told = results.map((r) => r.effects.tell.map((a) => `${a.status} ${a.labels.alertname}`));
    expect(told.slice(0, 9)).toEqual([
      [],
      ['firing WithdrawClosed', 'firing WithdrawClosing'],
      ['resolved WithdrawClosed'],
      ['firing WithdrawClosed', 'firing WithdrawClosing'],
      // The fourth change: 23 % state change over 20 slots. WithdrawClosed stays firing (held),
      // no event for the flip.
      ['firing Flapping'],
      [],
      [],
      [],
      [],
    ]);
    const flapping = results[4]!.effects.tell[0]!;
    expect(flapping.labels).toEqual({ alertname: 'Flapping', exchange: 'main', severity: 'warning', coin: 'USDT', network: 'TRX' });
    expect(flapping.annotations).toEqual({
      summary: 'USDT on TRX is flapping (main): 4 changes in the last 21 polls',
      description: 'The exchange answers USDT on TRX one way and the other in turn (23 % state change over the last 21 polls). Its alerts are held while it flaps; this alert resolves when it settles.',
    });
    // Closed from the 9th change on (poll 10): quiet until the changes age out of the window;
    // at 5 % it settles (19 polls after its last change), closed: WithdrawClosed, held firing,
    // simply goes on.
    const settled = told.findIndex((t, i) => i > 4 && t.length > 0);
    expect(settled).toBe(28);
    expect(told[settled]).toEqual(['resolved Flapping']);
    expect(told.slice(9, 28).every((t) => t.length === 0)).toBe(true);
    const active = [...alertsOf(results[28]!.state.alerts)].map((a) => `${a.status} ${a.labels.alertname}`);
    expect(active).toEqual(['firing WithdrawClosed']);
  });

  it('settling open resolves what was held firing; a network that closes once is never flapping', () => {
    const results = run(initialState(settings(WITHDRAW)), [
      [coins('main', usdt(true)), 1000],
      ...alternating(2000, 4, false), // closed, open, closed, open: flapping, WithdrawClosed held firing
      ...Array.from({ length: 20 }, (_, i): [StepInput, number] => [coins('main', usdt(true)), 6000 + i * 1000]),
    ]);
    const told = results.map((r) => r.effects.tell.map((a) => `${a.status} ${a.labels.alertname}`));
    expect(told[4]).toEqual(['firing Flapping']);
    const settled = told.findIndex((t, i) => i > 4 && t.length > 0);
    expect(told[settled]).toEqual(['resolved WithdrawClosed', 'resolved Flapping']);
    expect([...alertsOf(results[settled]!.state.alerts)]).toEqual([]);
  });

  it('flaps not at all when the exchange turns flap detection off', () => {
    const off = settings(WITHDRAW, { flapping: new Map([['main', { enabled: false, window: 21, highPercent: 20, lowPercent: 5 }]]) });
    const results = run(initialState(off), [[coins('main', usdt(true)), 1000], ...alternating(2000, 4, false)]);
    expect(results[4]!.effects.tell.map((a) => `${a.status} ${a.labels.alertname}`)).toEqual(['resolved WithdrawClosed']);
  });
});

describe('step: notices (notices.md sections 3 and 4)', () => {
  const H = 3_600_000;
  const T = Date.UTC(2026, 10, 27, 12);
  const NOTICE_RULES = `rules:
  - alert: WithdrawClosed
    state: withdraw_disabled
  - alert: UnannouncedWithdrawClosure
    state: withdraw_disabled
    unannounced: true
  - alert: MaintenanceSoon
    maintenance: scheduled
    within: 24h
  - alert: MaintenanceNow
    maintenance: ongoing
  - alert: ExchangeNotNormal
    exchange_status: [maintenance, cancel_only]
  - alert: DelistingAnnounced
    announcement: [delisting]
    match: { coin: "USDT|BTC" }
`;
  const window = (state: 'scheduled' | 'ongoing' | 'completed', begins: number) => ({
    id: 'w1', title: 'Wallet maintenance', state, begins, ends: begins + 2 * H, origin: 'planned' as const, scope: 'funding' as const, coins: [], symbols: [], url: 'https://x.invalid/w1', source: 'bybit-status',
  });
  const notices = (read: Extract<StepInput, { type: 'notices' }>['read']): StepInput => ({ type: 'notices', exchange: 'main', source: 'bybit-status', read, options: { vanished: 'judge' } });
  const annotations = (r: StepResult, alertname: string) => [...alertsOf(r.state.alerts)].filter((a) => a.labels.alertname === alertname).map((a) => a.annotations.notice);

  it('tells an unannounced closure at once, marks every closure with the notice that explains it, and resolves the unannounced one when a window explains it', () => {
    const results = run(initialState(settings(NOTICE_RULES)), [
      [coins('main', usdt(true)), T],
      [coins('main', usdt(false)), T + 60_000],
      [notices({ maintenance: [window('ongoing', T)] }), T + 120_000],
    ]);
    expect(said(results[1]!).tell).toEqual(['firing WithdrawClosed', 'firing UnannouncedWithdrawClosure']);
    expect(annotations(results[1]!, 'WithdrawClosed')).toEqual(['none']);
    expect(said(results[2]!).tell).toEqual(['resolved UnannouncedWithdrawClosure', 'firing MaintenanceNow']);
    expect(annotations(results[2]!, 'WithdrawClosed')).toEqual(['Wallet maintenance https://x.invalid/w1']);
    const now = [...alertsOf(results[2]!.state.alerts)].find((a) => a.labels.alertname === 'MaintenanceNow')!;
    expect(now.labels).toEqual({ alertname: 'MaintenanceNow', exchange: 'main', severity: 'warning', maintenance: 'w1' });
    expect(now.annotations).toEqual({
      summary: 'main maintenance under way: Wallet maintenance (2026-11-27T12:00:00.000Z to 2026-11-27T14:00:00.000Z)',
      description: '',
      title: 'Wallet maintenance',
      url: 'https://x.invalid/w1',
      begins: '2026-11-27T12:00:00.000Z',
      ends: '2026-11-27T14:00:00.000Z',
    });
  });

  it('one window told by the exchange and its Statuspage is one alert, and explains only the coin it names', () => {
    const eth = (on: boolean): CoinRecord => coinRecord('ETH', [{ network: 'ETH', withdrawEnable: on }]);
    const read = (source: string, w: Record<string, unknown>): StepInput => ({
      type: 'notices', exchange: 'main', source, options: { vanished: 'judge' },
      read: { maintenance: [{ ...window('ongoing', T), ...w, source } as ReturnType<typeof window>] },
    });
    const results = run(initialState(settings(NOTICE_RULES)), [
      [coins('main', usdt(true), eth(true)), T],
      // Bybit's own window: funding by its title, which names USDT as a bare word.
      [read('bybit-status', { id: 'b1', title: 'USDT wallet maintenance' }), T + 60_000],
      // The same window on its Statuspage: the component names the coin.
      [read('statuspage', { id: 'sp1', title: 'Wallet maintenance', named: ['USDT deposits and withdrawals'] }), T + 120_000],
      [coins('main', usdt(false), eth(false)), T + 180_000],
    ]);
    expect(said(results[1]!).tell).toEqual(['firing MaintenanceNow']);
    expect(said(results[2]!).tell).toEqual([]);
    const book = results[2]!.state.exchanges.get('main')!.notices;
    expect([...book.windows.values()].map((w) => [w.id, w.coins])).toEqual([['b1', ['USDT']], ['sp1', ['USDT']]]);
    expect(said(results[3]!).tell).toEqual(['firing WithdrawClosed', 'firing WithdrawClosed', 'firing UnannouncedWithdrawClosure']);
    const unannounced = [...alertsOf(results[3]!.state.alerts)].filter((a) => a.labels.alertname === 'UnannouncedWithdrawClosure');
    expect(unannounced.map((a) => a.labels.coin)).toEqual(['ETH']);
    expect([...alertsOf(results[3]!.state.alerts)].filter((a) => a.labels.alertname === 'MaintenanceNow').map((a) => a.labels.maintenance)).toEqual(['b1']);
  });

  it('a listed ticker as a plain word of a window\'s title is no coin of it ("about ONE hour"): the window covers every coin', () => {
    const eth = (on: boolean): CoinRecord => coinRecord('ETH', [{ network: 'ETH', withdrawEnable: on }]);
    const one = coinRecord('ONE', [{ network: 'ONE' }]);
    const results = run(initialState(settings(NOTICE_RULES)), [
      [coins('main', usdt(true), eth(true), one), T],
      [{ type: 'notices', exchange: 'main', source: 'bybit-status', options: { vanished: 'judge' }, read: { maintenance: [{ ...window('ongoing', T), id: 'b1', title: 'Wallet maintenance, about ONE hour', source: 'bybit-status' } as ReturnType<typeof window>] } }, T + 60_000],
      [coins('main', usdt(true), eth(false), one), T + 120_000],
    ]);
    expect([...results[1]!.state.exchanges.get('main')!.notices.windows.values()].map((w) => w.coins)).toEqual([[]]);
    expect(said(results[2]!).tell).toEqual(['firing WithdrawClosed']);
  });

  it('a closure inside a scheduled window is expected: no unannounced alert; MaintenanceSoon only within 24 h of its begin', () => {
    const results = run(initialState(settings(NOTICE_RULES)), [
      [coins('main', usdt(true)), T],
      [notices({ maintenance: [window('scheduled', T + 25 * H)] }), T + 60_000],
      [notices({ maintenance: [window('scheduled', T + 25 * H)] }), T + 2 * H],
      [notices({ maintenance: [window('ongoing', T + 25 * H)] }), T + 25 * H],
      [coins('main', usdt(false)), T + 25 * H + 60_000],
    ]);
    expect(said(results[1]!).tell).toEqual([]);
    expect(said(results[2]!).tell).toEqual(['firing MaintenanceSoon']);
    expect(said(results[3]!).tell).toEqual(['resolved MaintenanceSoon', 'firing MaintenanceNow']);
    expect(said(results[4]!).tell).toEqual(['firing WithdrawClosed']);
  });

  it('tells each delisting read after the baseline once, when a coin it names (and the exchange lists) matches; and the exchange status while not normal', () => {
    const ann = (id: string, title: string) => ({ id, kind: 'delisting' as const, title, url: null, published: T, source: 'bybit-status' });
    const a1 = ann('a1', 'Will Delist Tether (USDT)');
    const results = run(initialState(settings(NOTICE_RULES)), [
      [coins('main', usdt(true), coinRecord('ETH', [{ network: 'ETH', withdrawEnable: true }])), T - 60_000],
      [notices({ announcements: [a1], status: { state: 'normal', message: null, since: null } }), T],
      [notices({ announcements: [a1, ann('a2', 'Delisting of USDT, BTC, XYZ'), ann('a3', 'Delisting of ETH pairs')], status: { state: 'cancel_only', message: 'upgrade', since: T } }), T + 60_000],
      [notices({ status: { state: 'normal', message: null, since: null } }), T + 120_000],
    ]);
    expect(said(results[1]!).tell).toEqual([]);
    expect(said(results[2]!).tell).toEqual(['firing ExchangeNotNormal', 'firing DelistingAnnounced']);
    const told = results[2]!.effects.tell[1]!;
    expect(told.labels).toEqual({ alertname: 'DelistingAnnounced', exchange: 'main', severity: 'warning', announcement: 'a2' });
    expect(told.annotations).toEqual({ summary: 'main announcement: Delisting of USDT, BTC, XYZ', description: '', title: 'Delisting of USDT, BTC, XYZ', url: '', coins: 'USDT', published: '2026-11-27T12:00:00.000Z' });
    expect(said(results[3]!).tell).toEqual(['resolved ExchangeNotNormal']);
    expect([...results[2]!.effects.write!.notices!.book.announcements.values()].map((a) => [a.id, a.coins])).toEqual([['a1', ['USDT']], ['a2', ['USDT']], ['a3', ['ETH']]]);
  });

  it('says which announcements a read took for the first time, the baseline included, and none for a read of nothing new', () => {
    const ann = (id: string) => ({ id, kind: 'delisting' as const, title: `Delisting of ${id}`, url: null, published: T, source: 'bybit-status' });
    const results = run(initialState(settings('rules: []\n')), [
      [notices({ announcements: [ann('a1'), ann('a2')] }), T],
      [notices({ announcements: [ann('a1'), ann('a2'), ann('a3')] }), T + 60_000],
      [notices({ announcements: [ann('a1'), ann('a2'), ann('a3')] }), T + 120_000],
      [notices({ status: { state: 'normal', message: null, since: null } }), T + 180_000],
    ]);
    expect(results.map((r) => r.effects.firstRead?.map((a) => a.id))).toEqual([['a1', 'a2'], ['a3'], undefined, undefined]);
  });
});
