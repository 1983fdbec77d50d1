/**
 * The poll path after the fetch (poll/path.ts): each input through step, its write to a real
 * SQLite store, the write's outcome back through step. What the store holds, what is told and
 * what is written, per input.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Alert } from '../../src/alerts/alert';
import { alertsOf } from '../../src/alerts/lifecycle';
import { PollPath } from '../../src/poll/path';
import { Persist, type PollStore } from '../../src/poll/persist';
import { initialState } from '../../src/poll/state';
import type { StepInput } from '../../src/poll/step';
import type { CoinRecord } from '../../src/snapshot/model';
import { StateStore } from '../../src/store/store';
import { coinRecord } from '../support/records';
import { rulesFrom } from '../support/rules-harness';
import { DEFAULT_SETTINGS } from '../support/poll-settings';

// Work at full size (an 8,000-alert storm, thousands of coins) takes seconds on a loaded machine: no test of this file is bound by its speed.
jest.setTimeout(60_000);

/** The store of `dir`, and a view of it that refuses every transaction while `disk.full` (test/daemon/store-failing.test.ts fills a real one). */
function fillableStore(dir: string, full = false): { real: StateStore; store: PollStore; disk: { full: boolean; refused: number } } {
  const real = StateStore.open(dir);
  const disk = { full, refused: 0 };
  const store: PollStore = {
    transaction: <T>(fn: () => T): T => {
      if (disk.full) {
        disk.refused++;
        throw new Error('database or disk is full');
      }
      return real.transaction(fn);
    },
    appendChanges: (...a) => real.appendChanges(...a),
    saveSnapshot: (...a) => real.saveSnapshot(...a),
    saveCoinsDelta: (...a) => real.saveCoinsDelta(...a),
    saveNotices: (...a) => real.saveNotices(...a),
    saveHistory: (...a) => real.saveHistory(...a),
    writeAlerts: (...a) => real.writeAlerts(...a),
    addPending: (...a) => real.addPending(...a),
  };
  return { real, store, disk };
}

/** A poll path over `store` with the given rules and no guard against shrinking. */
function pathOver(store: PollStore, rules = 'rules: []\n', limit?: number): { path: PollPath; told: Alert[]; coins(records: CoinRecord[], at: number, exchange?: string): void; input(i: StepInput, at: number): void } {
  const path = new PollPath(initialState({ ...DEFAULT_SETTINGS, rules: rulesFrom(rules), guards: new Map([['main', { maxShrink: 1, confirmPolls: 1, confirmMs: 0 }]]) }), new Persist(store, limit));
  const told: Alert[] = [];
  const input = (i: StepInput, at: number): void => {
    for (const r of path.decide(i, at).results) told.push(...r.effects.tell);
  };
  return { path, told, input, coins: (records, at, exchange = 'main') => input({ type: 'answer', exchange, endpoint: 'coins', answer: { records, issues: [] } }, at) };
}

const usdt = (closed: boolean, fee = '1'): CoinRecord => coinRecord('USDT', [{ network: 'TRX', withdrawEnable: !closed, withdrawFee: fee }]);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-path-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the poll path when the state store cannot be written', () => {
  it('keeps deciding and telling, raises StoreFailing, keeps the changes, and writes them with the first write that succeeds', () => {
    const { real, store, disk } = fillableStore(dir);
    const { path, told, coins } = pathOver(store, 'rules:\n  - alert: W\n    state: withdraw_disabled\n');
    coins([usdt(false)], 1);
    disk.full = true;
    coins([usdt(true)], 2);
    coins([usdt(true, '2')], 3);
    expect(told.map((a) => `${a.status} ${a.labels.alertname}`)).toEqual(['firing W', 'firing StoreFailing']);
    expect(told[1]?.annotations).toEqual({
      summary: 'spotwatch cannot write its state store (main)',
      description: 'Writes fail: database or disk is full. Notifications are held in memory and change history is queued until the store takes writes again.',
    });
    // Refused: poll 2's write, StoreFailing's, poll 3's (its own outcome changes nothing: no write).
    expect(disk.refused).toBe(3);
    expect(real.queryChanges({ limit: 10 })).toEqual([]);

    disk.full = false;
    coins([usdt(true, '2')], 4);
    expect(told.map((a) => `${a.status} ${a.labels.alertname}`)).toEqual(['firing W', 'firing StoreFailing', 'resolved StoreFailing']);
    expect([...real.loadAlerts().values()].map((a) => a.labels.alertname)).toEqual(['W']);
    expect([...alertsOf(path.state.alerts)].map((a) => a.labels.alertname)).toEqual(['W']);
    // The changes of the polls that could not be written, once each, in order.
    expect(real.queryChanges({ limit: 10 }).map((c) => [c.id, c.kind, c.before, c.after, c.at])).toEqual([
      [3, 'withdraw_fee_changed', '1', '2', 3],
      [2, 'withdraw_disabled', true, false, 2],
      [1, 'withdraw_all_disabled', true, false, 2],
    ]);
    // And the coins of the failed poll, though the next one did not change them.
    expect(real.loadSnapshot('main')?.coins.get('USDT')?.networkList[0]?.withdrawFee).toBe('2');
    real.close();
  });

  it('hands back every input it gave step, in order: the input, then each write\'s outcome (what a recording keeps)', () => {
    const { real, store, disk } = fillableStore(dir);
    const { path } = pathOver(store, 'rules:\n  - alert: W\n    state: withdraw_disabled\n');
    const answer = (at: number): StepInput => ({ type: 'answer', exchange: 'main', endpoint: 'coins', answer: { records: [usdt(false, String(at))], issues: [] } });
    const full = { type: 'written', exchange: 'main', error: 'database or disk is full' };
    expect(path.decide(answer(1), 1).inputs).toEqual([answer(1), { type: 'written', exchange: 'main', error: undefined }]);
    disk.full = true;
    // Refused: StoreFailing fires, and its own write is refused too (whose outcome changes nothing, and is not given to step).
    expect(path.decide(answer(2), 2).inputs).toEqual([answer(2), full, full]);
    const failed: StepInput = { type: 'failure', exchange: 'main', endpoint: 'tickers', error: 'tickers: timed out' };
    expect(path.decide(failed, 3).inputs).toEqual([failed, full]);
    real.close();
  });

  it('writes the changes and the snapshot that showed them together, with the next input, whatever it is', () => {
    const { real, store, disk } = fillableStore(dir);
    const { coins, input } = pathOver(store);
    coins([usdt(false, '1')], 1);
    disk.full = true;
    coins([usdt(false, '2')], 2);
    disk.full = false;
    // The disk is back at a failed ticker poll, which writes nothing of its own.
    input({ type: 'failure', exchange: 'main', endpoint: 'tickers', error: 'tickers: timed out' }, 3);
    expect(real.queryChanges({ limit: 10 }).map((c) => [c.kind, c.after])).toEqual([['withdraw_fee_changed', '2']]);
    expect(real.loadSnapshot('main')?.coins.get('USDT')?.networkList[0]?.withdrawFee).toBe('2');
    real.close();
  });

  it('keeps at most the limit of unwritten changes, dropping the oldest, counted', () => {
    const { real, store, disk } = fillableStore(dir, true);
    const path = new PollPath(initialState(DEFAULT_SETTINGS), new Persist(store, 2));
    const dropped: number[] = [];
    const poll = (fee: string, at: number): void => {
      for (const w of path.decide({ type: 'answer', exchange: 'main', endpoint: 'coins', answer: { records: [usdt(false, fee)], issues: [] } }, at).writes) if (w !== undefined) dropped.push(w.dropped);
    };
    for (const [i, fee] of ['1', '2', '3', '4'].entries()) poll(fee, i + 1);
    expect(dropped.filter((n) => n > 0)).toEqual([1]);
    disk.full = false;
    poll('5', 5);
    expect(real.queryChanges({ limit: 10 }).map((c) => [c.before, c.after])).toEqual([['4', '5'], ['3', '4'], ['2', '3']]);
    real.close();
  });
});

describe('the pending notifications written with the state', () => {
  it('keeps a change event and a resolution as pending with the step that decided them, and none when the write fails', () => {
    const { real, store, disk } = fillableStore(dir);
    const path = new PollPath(initialState({ ...DEFAULT_SETTINGS, rules: rulesFrom('rules:\n  - alert: W\n    state: withdraw_disabled\n  - alert: E\n    change: withdraw_fee_changed\n'), guards: new Map([['main', { maxShrink: 1, confirmPolls: 1, confirmMs: 0 }]]) }), new Persist(store));
    const poll = (records: CoinRecord[], at: number) => path.decide({ type: 'answer', exchange: 'main', endpoint: 'coins', answer: { records, issues: [] } }, at);
    poll([usdt(true)], 1);
    // A fee changed (an event) and the network opened (a resolution): both pending, in the order told.
    const { results, writes } = poll([usdt(false, '2')], 2);
    expect(results[0]?.effects.tell.map((a) => `${a.status} ${a.labels.alertname}`)).toEqual(['resolved W', 'firing E']);
    expect(results[0]?.effects.write?.pending.map((a) => a.labels.alertname)).toEqual(['W', 'E']);
    expect(real.loadPending().map((p) => [p.id, p.alert.labels.alertname, p.alert.status])).toEqual([
      [writes[0]?.pending[0], 'W', 'resolved'],
      [writes[0]?.pending[1], 'E', 'firing'],
    ]);
    // The store refuses: told all the same, without a pending row, and none kept for a later write.
    disk.full = true;
    const refused = poll([usdt(false, '3')], 3);
    expect([refused.results[0]?.effects.tell.length, refused.writes[0]?.pending]).toEqual([1, []]);
    disk.full = false;
    poll([usdt(false, '3')], 4);
    // The fee event of the refused write is not among them; StoreFailing's resolution is.
    expect(real.loadPending().map((p) => `${p.alert.status} ${p.alert.labels.alertname}`)).toEqual(['resolved W', 'firing E', 'resolved StoreFailing']);
    real.close();
  });
});

describe('the poll path and the exchanges it watches', () => {
  it('resolves the alerts of an exchange no longer watched, and only those, in the store too', () => {
    const store = StateStore.open(dir);
    const { path, told, coins, input } = pathOver(store, 'rules:\n  - alert: W\n    state: withdraw_disabled\n');
    coins([usdt(true)], 1, 'a');
    coins([usdt(true)], 1, 'b');
    expect(told.map((a) => `${a.status} ${a.labels.exchange}`)).toEqual(['firing a', 'firing b']);
    told.length = 0;
    input({ type: 'drop', exchange: 'a' }, 5);
    expect(told.map((a) => `${a.status} ${a.labels.exchange}`)).toEqual(['resolved a']);
    expect([...alertsOf(path.state.alerts)].map((a) => a.labels.exchange)).toEqual(['b']);
    expect([...store.loadAlerts().values()].map((a) => a.labels.exchange)).toEqual(['b']);
    store.close();
  });
});

describe('the poll path in a long outage', () => {
  it.each([
    { rules: 'rules:\n  - alert: W\n    state: withdraw_disabled\n', writes: [1, 0, 0, 1], stored: 0, why: 'an unchanged alert is not written again' },
    // Open again at the fourth poll, the alert is kept firing (unchanged): nothing to write.
    { rules: 'rules:\n  - alert: W\n    state: withdraw_disabled\n    keep_firing_for: 1m\n', writes: [1, 1, 1, 0], stored: 1, why: 'keep_firing_for needs lastActiveAt written while active' },
  ])('writes the alerts only when they changed: $why', ({ rules, writes, stored }) => {
    const real = StateStore.open(dir);
    const written: number[] = [];
    const store: PollStore = Object.assign(Object.create(real) as StateStore, {
      writeAlerts: (set: Iterable<import('../../src/alerts/alert').Alert>, gone: Iterable<string>) => {
        const [s, g] = [[...set], [...gone]];
        written.push(s.length + g.length);
        real.writeAlerts(s, g);
      },
    });
    const { coins } = pathOver(store, rules);
    const perPoll: number[] = [];
    // Closed at the first poll, still closed at the next two, open at the fourth.
    for (const [i, closed] of [true, true, true, false].entries()) {
      const before = written.length;
      coins([usdt(closed)], 1000 * (i + 1));
      perPoll.push(written.slice(before).reduce((a, b) => a + b, 0));
    }
    expect(perPoll).toEqual(writes);
    expect(real.loadAlerts().size).toBe(stored);
    real.close();
  });
});

const STORM = 2500;
const WITHDRAW_RULE = 'rules:\n  - alert: W\n    state: withdraw_disabled\n';
/** Coins C0 .. C2499, one network each, withdrawals open where `open(i)`. */
const storm = (open: (i: number) => boolean): CoinRecord[] => Array.from({ length: STORM }, (_, i) => coinRecord(`C${i}`, [{ network: 'N', withdrawEnable: open(i) }]));

describe('the poll path in a storm', () => {
  it('2,500 networks close, then 1,200 open again: exactly those resolve', () => {
    const store = StateStore.open(dir);
    const { path, told, coins } = pathOver(store, WITHDRAW_RULE);
    coins(storm(() => false), 1000);
    expect({ told: told.length, firing: told.every((a) => a.status === 'firing'), stored: store.loadAlerts().size }).toEqual({ told: STORM, firing: true, stored: STORM });
    told.length = 0;
    coins(storm((i) => i < 1200), 2000);
    expect({ told: told.length, resolved: told.filter((a) => a.status === 'resolved').map((a) => a.labels.coin).sort(), active: [...alertsOf(path.state.alerts)].length }).toEqual({
      told: 1200,
      resolved: Array.from({ length: 1200 }, (_, i) => `C${i}`).sort(),
      active: 1300,
    });
    expect(store.loadAlerts().size).toBe(1300);
    store.close();
  });

  it('2,500 networks close: a state rule and a change rule give every alert and event once, in order, and one transaction stores them with the snapshot', () => {
    const real = StateStore.open(dir);
    let transactions = 0;
    let depth = 0;
    const store: PollStore = Object.assign(Object.create(real) as StateStore, {
      // The outermost transactions (the store nests its own inside).
      transaction: <T>(fn: () => T): T => {
        if (depth === 0) transactions++;
        depth++;
        try {
          return real.transaction(fn);
        } finally {
          depth--;
        }
      },
    });
    const { told, coins } = pathOver(store, `${WITHDRAW_RULE}  - alert: C\n    change: withdraw_disabled\n`);
    coins(storm(() => true), 1000);
    transactions = 0;
    coins(storm(() => false), 2000);
    const names = Array.from({ length: STORM }, (_, i) => `C${i}`);
    expect({
      W: told.filter((a) => a.labels.alertname === 'W').map((a) => a.labels.coin),
      C: told.filter((a) => a.labels.alertname === 'C').map((a) => a.labels.coin),
    }).toEqual({ W: names, C: names });
    expect(transactions).toBe(1);
    expect({ alerts: real.loadAlerts().size, changes: real.countChanges(10_000), closed: [...(real.loadSnapshot('main')?.coins.values() ?? [])].every((c) => !c.withdrawAllEnable) }).toEqual({ alerts: STORM, changes: 2 * STORM, closed: true });
    real.close();
  });
});

describe('the coins part written as what changed', () => {
  it('writes it whole once, then only the coins that changed or went; after a failed write whole again; the store reads back as the live snapshot', () => {
    const { real, store, disk } = fillableStore(dir);
    const writes: string[] = [];
    const counting: PollStore = {
      ...store,
      saveSnapshot: (s, part) => {
        writes.push(`whole ${part} ${part === 'coins' ? s.coins.size : s.tickers.size}`);
        store.saveSnapshot(s, part);
      },
      saveCoinsDelta: (s, changed, gone) => {
        writes.push(`delta ${changed.map((c) => c.coin).join(',')} -${gone.join(',')}`);
        store.saveCoinsDelta(s, changed, gone);
      },
    };
    const { path, coins } = pathOver(counting);
    const coin = (name: string, fee = '1'): CoinRecord => coinRecord(name, [{ network: name, withdrawFee: fee }]);
    const stored = () => {
      const s = real.loadSnapshot('main');
      return { at: s?.coinsAt, coins: [...(s?.coins.values() ?? [])] };
    };
    const live = () => ({ at: path.state.exchanges.get('main')?.snapshot.coinsAt, coins: [...(path.state.exchanges.get('main')?.snapshot.coins.values() ?? [])] });
    coins([coin('A'), coin('B'), coin('C')], 1);
    coins([coin('A'), coin('B', '2'), coin('C')], 2);
    coins([coin('A'), coin('B', '2'), coin('D')], 3);
    expect(stored()).toEqual(live());
    disk.full = true;
    coins([coin('A', '3'), coin('B', '2'), coin('D')], 4);
    disk.full = false;
    coins([coin('A', '3'), coin('B', '2'), coin('D'), coin('E')], 5);
    coins([coin('A', '3'), coin('B', '2'), coin('D'), coin('E', '9')], 6);
    // The write at 4 was refused as a whole (nothing reached the store); 5 writes the part whole again.
    expect(writes).toEqual(['whole coins 3', 'delta B -', 'delta D -C', 'whole coins 4', 'delta E -']);
    expect(stored()).toEqual(live());
    real.close();
  });
});
