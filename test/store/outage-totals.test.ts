import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import type { Change } from '../../src/snapshot/changes';
import type { OutageTotals } from '../../src/outages/model';
import { totalsBySql } from '../../src/store/outage-totals';
import { StateStore } from '../../src/store/store';
import { change, H, script, snapshot, T0 } from '../support/outage-script';
import { openTempStore, type TempStore } from '../support/temp-store';

let t: TempStore;
beforeEach(() => {
  t = openTempStore();
});
afterEach(() => t.close());

const order = (rows: OutageTotals[]): OutageTotals[] =>
  [...rows].sort((a, b) => `${a.exchange}/${a.coin}/${a.network}/${a.direction}`.localeCompare(`${b.exchange}/${b.coin}/${b.network}/${b.direction}`));

/** The index's answer and the aggregate over the table, side by side (a second connection reads what was committed). */
function both(dir: string, store: StateStore, q: Parameters<StateStore['outageTotals']>[0]): [OutageTotals[], OutageTotals[]] {
  const db = new Database(join(dir, 'spotwatch.db'), { readonly: true });
  try {
    return [order(store.outageTotals(q)), order(totalsBySql(db, q))];
  } finally {
    db.close();
  }
}

const NETS = [['USDT', 'TRX'], ['USDT', 'ETH'], ['BTC', 'BTC']] as const;
const KINDS = ['deposit_disabled', 'deposit_enabled', 'withdraw_disabled', 'withdraw_enabled', 'network_removed', 'coin_delisted'] as const;

describe('availability totals from the index in memory equal the aggregate over the table', () => {
  it('for the scripted closures: exact values', () => {
    script(t.store);
    const q = { start: T0 - 24 * H, now: T0 + 10 * H };
    expect(t.store.outageTotals(q)).toHaveLength(3);
    expect(both(t.dir, t.store, q)).toEqual([
      [
        { exchange: 'main', coin: 'BTC', network: 'BTC', direction: 'deposit', closedMs: 5 * H, count: 1, reopened: 0, reopenedMs: 0 },
        { exchange: 'main', coin: 'USDT', network: 'ETH', direction: 'withdraw', closedMs: 6 * H, count: 0, reopened: 0, reopenedMs: 0 },
        { exchange: 'main', coin: 'USDT', network: 'TRX', direction: 'withdraw', closedMs: 2 * H, count: 1, reopened: 1, reopenedMs: 2 * H },
      ],
      [
        { exchange: 'main', coin: 'BTC', network: 'BTC', direction: 'deposit', closedMs: 5 * H, count: 1, reopened: 0, reopenedMs: 0 },
        { exchange: 'main', coin: 'USDT', network: 'ETH', direction: 'withdraw', closedMs: 6 * H, count: 0, reopened: 0, reopenedMs: 0 },
        { exchange: 'main', coin: 'USDT', network: 'TRX', direction: 'withdraw', closedMs: 2 * H, count: 1, reopened: 1, reopenedMs: 2 * H },
      ],
    ]);
  });

  it('for random histories, windows and filters, after later writes, pruning, a rolled-back write and a restart', () => {
    const event = fc.record({ net: fc.integer({ min: 0, max: NETS.length - 1 }), kind: fc.constantFrom(...KINDS), dt: fc.integer({ min: 0, max: 10 }).map((n) => (n * H) / 2) });
    // On a half-hour grid, so outages often begin or end exactly where a window does.
    const grid = (min: number, max: number) => fc.integer({ min, max }).map((n) => (n * H) / 2);
    const window = fc.record({ start: grid(-4, 120), length: grid(0, 120), filter: fc.constantFrom({}, { exchange: 'main' }, { coin: 'USDT' }, { coin: 'USDT', network: 'TRX' }, { exchange: 'other' }) });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), fc.array(event, { maxLength: 10 }), fc.array(window, { minLength: 1, maxLength: 4 }), grid(0, 80), (first, later, windows, cutoff) => {
        const s = openTempStore();
        let store = s.store;
        try {
          store.saveSnapshot(snapshot(T0), 'coins');
          let at = T0;
          const append = (events: typeof first): void => {
            const changes: Change[] = events.map((e) => {
              at += e.dt;
              const [coin, network] = NETS[e.net] as readonly [string, string];
              return e.kind === 'coin_delisted' ? { kind: e.kind, exchange: 'main', coin, before: null, after: null, at } : change(e.kind, coin, network, at, !e.kind.endsWith('_disabled'));
            });
            store.transaction(() => store.appendChanges(changes));
          };
          const check = (): void => {
            for (const w of windows) {
              const q = { ...w.filter, start: T0 + w.start, now: T0 + w.start + w.length };
              const [index, sql] = both(s.dir, store, q);
              expect(index).toEqual(sql);
            }
          };
          append(first);
          check();
          append(later);
          check();
          store.pruneChanges(T0 + cutoff);
          check();
          expect(() =>
            store.transaction(() => {
              store.appendChanges([change('withdraw_disabled', 'BTC', 'BTC', at + H, false)]);
              throw new Error('rolled back');
            }),
          ).toThrow('rolled back');
          check();
          store.close();
          store = StateStore.open(s.dir);
          check();
        } finally {
          store.close();
          s.close();
        }
      }),
      { numRuns: 40 },
    );
  });

  it('warmed ahead, then written (outages touched) or asked: the same as the aggregate', async () => {
    const event = fc.record({ net: fc.integer({ min: 0, max: NETS.length - 1 }), kind: fc.constantFrom(...KINDS), dt: fc.integer({ min: 0, max: 10 }).map((n) => (n * H) / 2) });
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 30 }), fc.array(fc.array(event, { maxLength: 3 }), { maxLength: 8 }), fc.option(fc.integer({ min: 0, max: 6 })), async (first, between, askAt) => {
        const s = openTempStore();
        const store = s.store;
        try {
          store.saveSnapshot(snapshot(T0), 'coins');
          let at = T0;
          const changesOf = (events: typeof first): Change[] =>
            events.map((e) => {
              at += e.dt;
              const [coin, network] = NETS[e.net] as readonly [string, string];
              return e.kind === 'coin_delisted' ? { kind: e.kind, exchange: 'main', coin, before: null, after: null, at } : change(e.kind, coin, network, at, !e.kind.endsWith('_disabled'));
            });
          store.appendChanges(changesOf(first));
          const now = at + 200 * H;
          store.warmOutageIndex(now);
          between.forEach((writes, i) => {
            store.appendChanges(changesOf(writes));
            // A query between the writes (the status page asked meanwhile).
            if (askAt !== null && i === askAt) store.outageTotals({ start: now - 90 * 24 * H, now });
          });
          for (const q of [{ start: now - 90 * 24 * H, now }, { start: T0, now, coin: 'USDT' }, { start: T0 + 2 * H, now: T0 + 9 * H }]) {
            const [index, sql] = both(s.dir, store, q);
            expect(index).toEqual(sql);
          }
        } finally {
          s.close();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a network\'s spans, and totals of a window older than the index holds, read the same from the table', () => {
    script(t.store);
    const now = T0 + 10 * H;
    const trx = [{ direction: 'withdraw', began: T0 + H, from: T0 + H, to: T0 + 3 * H }];
    // The first query sets what the index holds: 91 days back from its now.
    expect(t.store.networkOutages('main', 'USDT', 'TRX', T0 - 24 * H, now)).toEqual(trx);
    expect(t.store.networkOutages('main', 'USDT', 'TRX', T0 - 200 * 24 * H, now)).toEqual(trx);
    expect(t.store.networkOutages('main', 'USDT', 'ETH', T0 + 7 * H, now)).toEqual([]);
    expect(t.store.networkOutages('main', 'BTC', 'BTC', T0, now)).toEqual([{ direction: 'deposit', began: T0 + 5 * H, from: T0 + 5 * H, to: null }]);
    const old = { start: T0 - 200 * 24 * H, now };
    expect(both(t.dir, t.store, old)[0]).toEqual(both(t.dir, t.store, { start: T0 - 24 * H, now })[1]);
  });
});
