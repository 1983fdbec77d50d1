import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Alert } from '../../src/alerts/alert';
import { createLogger, silentLogger } from '../../src/lib/logger';
import { DEFAULT_GUARD } from '../../src/snapshot/guard';
import { applyCoins } from '../../src/snapshot/merge';
import { emptySnapshot, type Snapshot } from '../../src/snapshot/model';
import { StateStore } from '../../src/store/store';
import { buildPollPath } from '../../src/poll/build';
import { ExchangeError, type FailureKind } from '../../src/exchange/errors';
import type { PollSuccess } from '../../src/poll/poller';
import type { PollStore } from '../../src/poll/store';
import { manualClock } from '../../src/lib/clock';

/** The poll path as the daemon builds it, driven with snapshots already merged (PollPath.judge). */
function stack(o: Omit<Parameters<typeof buildPollPath>[0], 'clock' | 'observer'>) {
  const { engine, writer, path } = buildPollPath({ ...o, clock: manualClock(0), observer: { changes: () => undefined, answered: () => undefined, failed: () => undefined } });
  return {
    onSuccess: (poll: PollSuccess) => path.judge(poll),
    onFailure: (poll: { exchange: string; endpoint: 'coins' | 'tickers'; at: number; durationMs: number; error: { kind: FailureKind; message: string } }) =>
      path.failure({ ...poll, error: new ExchangeError(poll.error.kind, poll.endpoint, poll.error.message) }),
    dropExchange: (exchange: string, at: number) => {
      path.resume(exchange, undefined);
      path.drop(exchange, at);
    },
    settled: () => writer.settled(),
    activeAlerts: () => engine.activeAlerts(),
  };
}
import { coinRecord } from '../support/records';
import { rulesFrom } from '../support/rules-harness';
import { Writable } from 'node:stream';
import { countTurns } from '../support/turns';

/**
 * The store of `dir`, and a view of it that refuses every transaction while `disk.full`
 * (a disk that fills up cannot be made here; test/daemon/store-failing.test.ts uses a real
 * SQLITE_FULL).
 */
function fillableStore(dir: string, full: boolean): { real: StateStore; store: PollStore; disk: { full: boolean } } {
  const real = StateStore.open(dir);
  const disk = { full };
  const store: PollStore = {
    transaction: <T>(fn: () => T): T => {
      if (disk.full) throw new Error('database or disk is full');
      return real.transaction(fn);
    },
    appendChanges: (...a) => real.appendChanges(...a),
    saveSnapshot: (...a) => real.saveSnapshot(...a),
    saveCoinsDelta: (...a) => real.saveCoinsDelta(...a),
    saveHistory: (...a) => real.saveHistory(...a),
    saveAlerts: (...a) => real.saveAlerts(...a),
    updateAlerts: (...a) => real.updateAlerts(...a),
    loadAlerts: () => real.loadAlerts(),
  };
  return { real, store, disk };
}

describe('Engine when the state store cannot be written', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spotwatch-engine-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps watching and notifying, raises StoreFailing, keeps the changes, and writes them when it can', async () => {
    const { real, store, disk } = fillableStore(dir, false);
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: new Writable({ write: (c: Buffer, _e, done) => { lines.push(c.toString()); done(); } }) });
    const told: Alert[] = [];
    let errors = 0;
    const engine = stack({
      rules: rulesFrom('rules:\n  - alert: W\n    state: withdraw_disabled\n'),
      store,
      logger,
      guards: new Map([['main', DEFAULT_GUARD]]),
      expectedSymbols: new Map(),
      notify: (a) => told.push(...a),
      onStoreError: () => errors++,
    });
    const snap = (disabled: boolean, at: number, fee = '1'): Snapshot => applyCoins(emptySnapshot('main'), { records: [coinRecord('USDT', [{ network: 'TRX', withdrawEnable: !disabled, withdrawFee: fee }])], issues: [] }, at);
    const poll = async (prev: Snapshot, next: Snapshot, at: number) => {
      const result = await engine.onSuccess({ exchange: 'main', endpoint: 'coins', prev, next, issues: [], at, durationMs: 1, bytes: 1 });
      await engine.settled();
      return result;
    };

    const first = snap(false, 1);
    expect((await poll(emptySnapshot('main'), first, 1)).outcome).toBe('accepted');
    disk.full = true;
    const second = snap(true, 2);
    expect((await poll(first, second, 2)).outcome).toBe('accepted');
    const third = snap(true, 3, '2');
    await poll(second, third, 3);
    expect(told.map((a) => `${a.status} ${a.labels.alertname}`)).toEqual(['firing W', 'firing StoreFailing']);
    expect(told[1]?.annotations).toEqual({
      summary: 'spotwatch cannot write its state store (main)',
      description: 'Writes fail: database or disk is full. Notifications are held in memory and change history is queued until the store takes writes again.',
    });
    expect(lines.filter((l) => l.includes('cannot write the state store'))).toHaveLength(1);
    // Refused transactions: poll 2's history and its state; poll 3's state (its history waits for it).
    expect(errors).toBe(3);
    expect(real.queryChanges({ limit: 10 })).toEqual([]);

    disk.full = false;
    await poll(third, snap(true, 4, '2'), 4);
    expect(lines.filter((l) => l.includes('state store writable again'))).toHaveLength(1);
    expect(told.map((a) => `${a.status} ${a.labels.alertname}`)).toEqual(['firing W', 'firing StoreFailing', 'resolved StoreFailing']);
    expect([...real.loadAlerts().values()].map((a) => a.labels.alertname)).toEqual(['W']);
    // The changes of the polls that could not be written, once each, in order.
    expect(real.queryChanges({ limit: 10 }).map((c) => [c.id, c.kind, c.before, c.after, c.at])).toEqual([
      [3, 'withdraw_fee_changed', '1', '2', 3],
      [2, 'withdraw_disabled', true, false, 2],
      [1, 'withdraw_all_disabled', true, false, 2],
    ]);
    expect(errors).toBe(3);
    // And the snapshot of the failed poll, though the next one did not change it.
    expect(real.loadSnapshot('main')?.coinsAt).toBe(4);
    real.close();
  });

  it('writes the changes and the snapshot that showed them together, whichever poll writes first', async () => {
    const { real, store, disk } = fillableStore(dir, false);
    const engine = stack({ rules: [], store, logger: silentLogger(), guards: new Map([['main', DEFAULT_GUARD]]), expectedSymbols: new Map(), notify: () => undefined });
    const first = applyCoins(emptySnapshot('main'), { records: [coinRecord('USDT', [{ network: 'TRX', withdrawFee: '1' }])], issues: [] }, 1);
    await engine.onSuccess({ exchange: 'main', endpoint: 'coins', prev: emptySnapshot('main'), next: first, issues: [], at: 1, durationMs: 1, bytes: 1 });
    await engine.settled();
    disk.full = true;
    const second = applyCoins(first, { records: [coinRecord('USDT', [{ network: 'TRX', withdrawFee: '2' }])], issues: [] }, 2);
    await engine.onSuccess({ exchange: 'main', endpoint: 'coins', prev: first, next: second, issues: [], at: 2, durationMs: 1, bytes: 1 });
    await engine.settled();
    disk.full = false;
    // The disk is back at a ticker poll (or a failed poll): the coins of the failed poll land with its change.
    engine.onFailure({ exchange: 'main', endpoint: 'tickers', at: 3, durationMs: 1, error: { kind: 'timeout', message: 'timeout' } });
    await engine.settled();
    expect(real.queryChanges({ limit: 10 }).map((c) => [c.kind, c.after])).toEqual([['withdraw_fee_changed', '2']]);
    expect(real.loadSnapshot('main')?.coins.get('USDT')?.networkList[0]?.withdrawFee).toBe('2');
    real.close();
  });

  it('keeps at most the limit of unwritten changes, dropping the oldest, counted', async () => {
    const { real, store, disk } = fillableStore(dir, true);
    const dropped: number[] = [];
    const engine = stack({
      rules: [],
      store,
      logger: silentLogger(),
      guards: new Map([['main', DEFAULT_GUARD]]),
      expectedSymbols: new Map(),
      notify: () => undefined,
      onHistoryDropped: (n) => dropped.push(n),
      unsavedChangesLimit: 2,
    });
    const snap = (fee: string, at: number): Snapshot => applyCoins(emptySnapshot('main'), { records: [coinRecord('USDT', [{ network: 'TRX', withdrawFee: fee }])], issues: [] }, at);
    const poll = async (prev: Snapshot, next: Snapshot, at: number) => {
      await engine.onSuccess({ exchange: 'main', endpoint: 'coins', prev, next, issues: [], at, durationMs: 1, bytes: 1 });
      await engine.settled();
    };
    let prev = emptySnapshot('main');
    for (const [i, fee] of ['1', '2', '3', '4'].entries()) {
      const next = snap(fee, i + 1);
      await poll(prev, next, i + 1);
      prev = next;
    }
    expect(dropped).toEqual([1]);
    disk.full = false;
    await poll(prev, snap('5', 5), 5);
    expect(real.queryChanges({ limit: 10 }).map((c) => [c.before, c.after])).toEqual([['4', '5'], ['3', '4'], ['2', '3']]);
    real.close();
  });
  it('stores no StoreFailing once it resolved, though a decision taken while it fired is written after', async () => {
    const { real, store, disk } = fillableStore(dir, false);
    const engine = stack({ rules: [], store, logger: silentLogger(), guards: new Map([['main', DEFAULT_GUARD]]), expectedSymbols: new Map(), notify: () => undefined });
    const coins = (fee: string, at: number): Snapshot => applyCoins(emptySnapshot('main'), { records: [coinRecord('USDT', [{ network: 'TRX', withdrawFee: fee }])], issues: [] }, at);
    const first = coins('1', 1);
    await engine.onSuccess({ exchange: 'main', endpoint: 'coins', prev: emptySnapshot('main'), next: first, issues: [], at: 1, durationMs: 1, bytes: 1 });
    await engine.settled();
    disk.full = true;
    const second = coins('2', 2);
    await engine.onSuccess({ exchange: 'main', endpoint: 'coins', prev: first, next: second, issues: [], at: 2, durationMs: 1, bytes: 1 });
    await engine.settled();
    expect([...engine.activeAlerts().values()].map((a) => a.labels.alertname)).toEqual(['StoreFailing']);
    disk.full = false;
    // Two decisions before their writes run: the first write resolves StoreFailing; the second
    // decision was taken while it still fired.
    const third = coins('3', 3);
    const a = engine.onSuccess({ exchange: 'main', endpoint: 'coins', prev: second, next: third, issues: [], at: 3, durationMs: 1, bytes: 1 });
    const b = engine.onSuccess({ exchange: 'main', endpoint: 'coins', prev: third, next: coins('4', 4), issues: [], at: 4, durationMs: 1, bytes: 1 });
    await Promise.all([a, b]);
    await engine.settled();
    expect([...engine.activeAlerts().values()].map((x) => x.labels.alertname)).toEqual([]);
    expect([...real.loadAlerts().values()].map((x) => x.labels.alertname)).toEqual([]);
    real.close();
  });
});

describe('Engine.dropExchange', () => {
  it('resolves the alerts of an exchange that is no longer watched, and only those', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spotwatch-engine-'));
    const store = StateStore.open(dir);
    const told: Alert[] = [];
    const engine = stack({
      rules: rulesFrom('rules:\n  - alert: W\n    state: withdraw_disabled\n'),
      store,
      logger: createLogger({ level: 'silent' }),
      guards: new Map(),
      expectedSymbols: new Map(),
      notify: (a) => told.push(...a),
    });
    for (const exchange of ['a', 'b']) {
      const next = applyCoins(emptySnapshot(exchange), { records: [coinRecord('USDT', [{ network: 'TRX', withdrawEnable: false }])], issues: [] }, 1);
      await engine.onSuccess({ exchange, endpoint: 'coins', prev: emptySnapshot(exchange), next, issues: [], at: 1, durationMs: 1, bytes: 1 });
    }
    await engine.settled();
    expect(told.map((a) => `${a.status} ${a.labels.exchange}`)).toEqual(['firing a', 'firing b']);
    told.length = 0;
    engine.dropExchange('a', 5);
    await engine.settled();
    expect(told.map((a) => `${a.status} ${a.labels.exchange}`)).toEqual(['resolved a']);
    expect([...engine.activeAlerts().values()].map((a) => a.labels.exchange)).toEqual(['b']);
    expect([...store.loadAlerts().values()].map((a) => a.labels.exchange)).toEqual(['b']);
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('Engine in a long outage', () => {
  it.each([
    { rules: 'rules:\n  - alert: W\n    state: withdraw_disabled\n', writes: [1, 0, 0, 1], stored: 0, why: 'an unchanged alert is not written again' },
    // Open again at the fourth poll, the alert is kept firing (unchanged): nothing to write.
    { rules: 'rules:\n  - alert: W\n    state: withdraw_disabled\n    keep_firing_for: 1m\n', writes: [1, 1, 1, 0], stored: 1, why: 'keep_firing_for needs lastActiveAt written while active' },
  ])('writes the alerts only when they changed: $why', async ({ rules, writes, stored }) => {
    const dir = mkdtempSync(join(tmpdir(), 'spotwatch-engine-'));
    const real = StateStore.open(dir);
    const saved: number[] = [];
    const store = Object.create(real) as StateStore;
    store.saveAlerts = (exchange, alerts) => {
      const list = [...alerts];
      saved.push(list.length);
      real.saveAlerts(exchange, list);
    };
    store.updateAlerts = (exchange, alerts, gone) => {
      const list = [...alerts];
      const drop = [...gone];
      saved.push(list.length + drop.length);
      real.updateAlerts(exchange, list, drop);
    };
    const engine = stack({ rules: rulesFrom(rules), store, logger: createLogger({ level: 'silent' }), guards: new Map(), expectedSymbols: new Map(), notify: () => undefined });
    const snap = (disabled: boolean, at: number): Snapshot => applyCoins(emptySnapshot('main'), { records: [coinRecord('USDT', [{ network: 'TRX', withdrawEnable: !disabled }])], issues: [] }, at);
    let prev = emptySnapshot('main');
    // Closed at the first poll, still closed at the next two, open at the fourth.
    const perPoll: number[] = [];
    for (const [i, closed] of [true, true, true, false].entries()) {
      const next = snap(closed, 1000 * (i + 1));
      const before = saved.length;
      await engine.onSuccess({ exchange: 'main', endpoint: 'coins', prev, next, issues: [], at: 1000 * (i + 1), durationMs: 1, bytes: 1 });
      await engine.settled();
      perPoll.push(saved.length - before);
      prev = next;
    }
    expect(perPoll).toEqual(writes);
    expect(real.loadAlerts().size).toBe(stored);
    real.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

const STORM = 2500;
const WITHDRAW_RULE = 'rules:\n  - alert: W\n    state: withdraw_disabled\n';

/** Coins C0 .. C2499 of 'main', one network each, withdrawals open where `open(i)`. */
function stormSnapshot(open: (i: number) => boolean, at: number): Snapshot {
  return applyCoins(emptySnapshot('main'), { records: Array.from({ length: STORM }, (_, i) => coinRecord(`C${i}`, [{ network: 'N', withdrawEnable: open(i) }])), issues: [] }, at);
}

/** An engine on `store` for the storm tests (silent, no guards, `notify` told of every alert), and a coins poll of it, settled. */
function stormEngine(store: StateStore, rules: string, notify: (alerts: Alert[]) => void = () => undefined): { engine: ReturnType<typeof stack>; poll(prev: Snapshot, next: Snapshot, at: number): Promise<void> } {
  const engine = stack({ rules: rulesFrom(rules), store, logger: silentLogger(), guards: new Map(), expectedSymbols: new Map(), notify });
  return {
    engine,
    async poll(prev, next, at) {
      await engine.onSuccess({ exchange: 'main', endpoint: 'coins', prev, next, issues: [], at, durationMs: 1, bytes: 1 });
      await engine.settled();
    },
  };
}

describe('Engine in a storm', () => {
  let dir: string;
  const opened: StateStore[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spotwatch-engine-'));
  });
  afterEach(async () => {
    // A storm's writes fold the WAL in a worker thread: the directory goes once it is done.
    for (const s of opened.splice(0)) {
      s.close();
      await s.settled();
    }
    rmSync(dir, { recursive: true, force: true });
  });
  const open = (): StateStore => {
    const s = StateStore.open(dir);
    opened.push(s);
    return s;
  };

  it('2,500 networks close, then 1,200 open again: exactly those resolve (the rule is judged 1,000 alerts per turn)', async () => {
    const store = open();
    const told: Alert[] = [];
    const { engine, poll } = stormEngine(store, WITHDRAW_RULE, (a) => told.push(...a));
    const first = stormSnapshot(() => false, 1000);
    await poll(emptySnapshot('main'), first, 1000);
    expect({ told: told.length, firing: told.every((a) => a.status === 'firing'), active: engine.activeAlerts().size }).toEqual({ told: STORM, firing: true, active: STORM });
    told.length = 0;
    await poll(first, stormSnapshot((i) => i < 1200, 2000), 2000);
    const resolved = told.filter((a) => a.status === 'resolved').map((a) => a.labels.coin).sort();
    expect({ told: told.length, resolved, active: engine.activeAlerts().size }).toEqual({
      told: 1200,
      resolved: Array.from({ length: 1200 }, (_, i) => `C${i}`).sort(),
      active: 1300,
    });
    store.close();
  });

  it('2,500 alerts new at one poll: no transaction writes more than 1,000 alert rows, and the store ends with every alert and the whole snapshot', async () => {
    const real = open();
    const store = Object.create(real) as StateStore;
    const rowsPerTransaction: number[] = [];
    let rows = 0;
    store.transaction = (fn) => {
      rows = 0;
      const out = real.transaction(fn);
      rowsPerTransaction.push(rows);
      return out;
    };
    store.saveAlerts = (exchange, alerts) => {
      const list = [...alerts];
      rows += list.length;
      real.saveAlerts(exchange, list);
    };
    store.updateAlerts = (exchange, alerts, gone) => {
      const list = [...alerts];
      rows += list.length;
      real.updateAlerts(exchange, list, gone);
    };
    const { poll } = stormEngine(store, WITHDRAW_RULE);
    const first = stormSnapshot((i) => i >= 1, 1000);
    await poll(emptySnapshot('main'), first, 1000);
    rowsPerTransaction.length = 0;
    const storm = stormSnapshot(() => false, 2000);
    await poll(first, storm, 2000);
    expect(Math.max(...rowsPerTransaction)).toBeLessThanOrEqual(1000);
    expect(rowsPerTransaction.reduce((a, b) => a + b, 0)).toBe(STORM - 1);
    expect(real.loadAlerts().size).toBe(STORM);
    expect(real.loadSnapshot('main')?.coins).toEqual(storm.coins);
    real.close();
  });

  it('2,500 networks close: a state rule and a change rule, evaluated 1,000 coins or changes per turn, give every alert and event once, in order, and let the event loop run', async () => {
    const store = open();
    const told: Alert[] = [];
    const { engine, poll } = stormEngine(store, `${WITHDRAW_RULE}  - alert: C\n    change: withdraw_disabled\n`, (a) => told.push(...a));
    const first = stormSnapshot(() => true, 1000);
    await poll(emptySnapshot('main'), first, 1000);
    const { turns } = await countTurns(() => engine.onSuccess({ exchange: 'main', endpoint: 'coins', prev: first, next: stormSnapshot(() => false, 2000), issues: [], at: 2000, durationMs: 1, bytes: 1 }));
    await engine.settled();
    const coins = Array.from({ length: STORM }, (_, i) => `C${i}`);
    expect({
      W: told.filter((a) => a.labels.alertname === 'W').map((a) => a.labels.coin),
      C: told.filter((a) => a.labels.alertname === 'C').map((a) => a.labels.coin),
    }).toEqual({ W: coins, C: coins });
    // Per rule a turn, then 3 parts evaluated and 3 judged, a turn between parts (13 here;
    // 9 when each rule was evaluated whole).
    expect(turns).toBeGreaterThanOrEqual(11);
    store.close();
  });
});

describe('the coins part written as what changed', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spotwatch-delta-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes it whole once, then only the coins that changed or went; after a failed write whole again; the store reads back as the live snapshot', async () => {
    const { real, store, disk } = fillableStore(dir, false);
    const writes: string[] = [];
    const counting: PollStore = {
      ...store,
      saveSnapshot: (s, part, bodies) => {
        writes.push(`whole ${part} ${part === 'coins' ? s.coins.size : s.tickers.size}`);
        store.saveSnapshot(s, part, bodies);
      },
      saveCoinsDelta: (s, changed, gone, bodies) => {
        writes.push(`delta ${changed.map((c) => c.coin).join(',')} -${gone.join(',')}`);
        expect(bodies).toEqual(changed.map((c) => JSON.stringify(c)));
        store.saveCoinsDelta(s, changed, gone, bodies);
      },
    };
    const engine = stack({ rules: [], store: counting, logger: silentLogger(), guards: new Map([['main', { ...DEFAULT_GUARD, maxShrink: 1 }]]), expectedSymbols: new Map(), notify: () => undefined });
    const coin = (name: string, fee = '1') => coinRecord(name, [{ network: name, withdrawFee: fee }]);
    let prev = emptySnapshot('main');
    const poll = async (records: ReturnType<typeof coin>[], at: number) => {
      // Merged against the previous snapshot, as the poll path does: an unchanged coin keeps its object.
      const next = applyCoins(prev, { records, issues: [] }, at);
      await engine.onSuccess({ exchange: 'main', endpoint: 'coins', prev, next, issues: [], at, durationMs: 1, bytes: 1 });
      await engine.settled();
      prev = next;
      return next;
    };
    const stored = () => {
      const s = real.loadSnapshot('main');
      return { at: s?.coinsAt, coins: [...(s?.coins.values() ?? [])] };
    };

    await poll([coin('A'), coin('B'), coin('C')], 1);
    await poll([coin('A'), coin('B', '2'), coin('C')], 2);
    let live = await poll([coin('A'), coin('B', '2'), coin('D')], 3);
    expect(stored()).toEqual({ at: 3, coins: [...live.coins.values()] });
    disk.full = true;
    await poll([coin('A', '3'), coin('B', '2'), coin('D')], 4);
    disk.full = false;
    live = await poll([coin('A', '3'), coin('B', '2'), coin('D'), coin('E')], 5);
    live = await poll([coin('A', '3'), coin('B', '2'), coin('D'), coin('E', '9')], 6);
    // The write at 4 was refused as a whole (nothing reached the store); 5 writes the part whole again.
    expect(writes).toEqual(['whole coins 3', 'delta B -', 'delta D -C', 'whole coins 4', 'delta E -']);
    expect(stored()).toEqual({ at: 6, coins: [...live.coins.values()] });
    real.close();
  });
});

describe('an answer whose text is the last accepted one’s', () => {
  it('is not merged again: the part keeps its very map, only its time moves; after a held answer it is merged and judged again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spotwatch-same-'));
    const real = StateStore.open(dir);
    const clock = manualClock(1_000);
    const { path } = buildPollPath({ rules: [], store: real, logger: silentLogger(), clock, guards: new Map([['main', DEFAULT_GUARD]]), expectedSymbols: new Map(), notify: () => undefined, observer: { changes: () => undefined, answered: () => undefined, failed: () => undefined } });
    path.resume('main', undefined);
    const coins = (n: number, fee = '1') => Array.from({ length: n }, (_, i) => coinRecord(`C${i}`, [{ network: 'N', withdrawFee: fee }]));
    const answer = (records: ReturnType<typeof coins>, unchanged?: true) => ({ exchange: 'main', endpoint: 'coins' as const, startedAt: clock.now(), at: clock.now(), answer: { records, issues: [], bytes: 1, requests: 1, ...(unchanged ? { unchanged } : {}) } });
    await path.answer(answer(coins(10)));
    const first = path.current('main');
    clock.advance(1_000);
    // The client says the text is the last one's: what it hands over is not even looked at (a
    // different fee here, to show it; the client hands over the last decode's very records).
    await path.answer(answer(coins(10, '9'), true));
    expect({ same: path.current('main')?.coins === first?.coins, at: path.current('main')?.coinsAt }).toEqual({ same: true, at: 2_000 });
    // Half the list: held as suspect. The same text again is judged again (the guard counts it), not taken as the kept part.
    clock.advance(1_000);
    await path.answer(answer(coins(5)));
    expect(path.current('main')?.coins.size).toBe(10);
    clock.advance(1_000);
    await path.answer(answer(coins(5), true));
    expect({ size: path.current('main')?.coins.size, at: path.current('main')?.coinsAt }).toEqual({ size: 10, at: 2_000 });
    real.close();
    await real.settled();
    rmSync(dir, { recursive: true, force: true });
  });
});
