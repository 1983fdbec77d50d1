import { join } from 'node:path';
import Database from 'better-sqlite3';
import { StateStore } from '../../src/store/store';
import { change, H, script, snapshot, T0 } from '../support/outage-script';
import { openTempStore, type TempStore } from '../support/temp-store';

let t: TempStore;
beforeEach(() => {
  t = openTempStore();
});
afterEach(() => t.close());

const brief = (store: StateStore) => store.queryOutages({ limit: 10 }).map((o) => [o.coin, o.network, o.direction, o.from, o.to, o.messages]);

describe('outages kept beside the change history', () => {
  it('a closure is an outage until it reopens, with its messages; a network closed when watching began has no start', () => {
    script(t.store);
    expect(t.store.watchingSince()).toEqual(new Map([['main', T0]]));
    expect(brief(t.store)).toEqual([
      ['BTC', 'BTC', 'deposit', T0 + 5 * H, null, []],
      ['USDT', 'TRX', 'withdraw', T0 + H, T0 + 3 * H, ['maintenance <b>&', 'maintenance extended']],
      ['USDT', 'ETH', 'withdraw', null, T0 + 6 * H, ['wallet upgrade']],
    ]);
  });

  it('the ended ones, newest end first (the timeline\'s reopenings), with the filters', () => {
    script(t.store);
    const ended = (q: Partial<Parameters<StateStore['queryOutages']>[0]> = {}) => t.store.queryOutages({ ended: true, limit: 10, ...q }).map((o) => `${o.coin} ${o.network} ${o.to === null ? 'open' : (o.to - T0) / H}`);
    expect(ended()).toEqual(['USDT ETH 6', 'USDT TRX 3']);
    expect(ended({ network: 'TRX' })).toEqual(['USDT TRX 3']);
    expect(ended({ coin: 'BTC' })).toEqual([]);
    expect(ended({ limit: 1 })).toEqual(['USDT ETH 6']);
  });

  it('the same closure and reopening appended again (after a restart) change nothing', () => {
    script(t.store);
    t.store.appendChanges([change('deposit_disabled', 'BTC', 'BTC', T0 + 5 * H, false), change('withdraw_enabled', 'USDT', 'TRX', T0 + 3 * H, true)]);
    expect(brief(t.store)).toHaveLength(3);
  });

  it('filters, and totals per network and direction within a window from when watching began', () => {
    script(t.store);
    expect(t.store.queryOutages({ direction: 'deposit', limit: 10 }).map((o) => o.coin)).toEqual(['BTC']);
    expect(t.store.queryOutages({ since: T0 + 4 * H, limit: 10 }).map((o) => o.network)).toEqual(['BTC', 'ETH']);
    const totals = t.store.outageTotals({ start: T0 - 24 * H, now: T0 + 10 * H }).sort((a, b) => a.network.localeCompare(b.network));
    expect(totals).toEqual([
      { exchange: 'main', coin: 'BTC', network: 'BTC', direction: 'deposit', closedMs: 5 * H, count: 1, reopened: 0, reopenedMs: 0 },
      { exchange: 'main', coin: 'USDT', network: 'ETH', direction: 'withdraw', closedMs: 6 * H, count: 0, reopened: 0, reopenedMs: 0 },
      { exchange: 'main', coin: 'USDT', network: 'TRX', direction: 'withdraw', closedMs: 2 * H, count: 1, reopened: 1, reopenedMs: 2 * H },
    ]);
  });

  it('pruning changes keeps an ongoing outage and its start, forgets those that reopened before the cutoff, and a restart keeps them', () => {
    script(t.store);
    expect(t.store.pruneChanges(T0 + 4 * H)).toBe(4);
    t.store.close();
    const store = StateStore.open(t.dir);
    try {
      expect(brief(store)).toEqual([
        ['BTC', 'BTC', 'deposit', T0 + 5 * H, null, []],
        ['USDT', 'ETH', 'withdraw', null, T0 + 6 * H, ['wallet upgrade']],
      ]);
      // The pruned closure's start stands when it reopens.
      store.appendChanges([change('deposit_enabled', 'BTC', 'BTC', T0 + 8 * H, true)]);
      expect(store.pruneChanges(T0 + 7 * H)).toBe(2);
      expect(brief(store)[0]).toEqual(['BTC', 'BTC', 'deposit', T0 + 5 * H, T0 + 8 * H, []]);
      // A later coin list (another process) neither moves when watching began nor adds outages.
      store.saveSnapshot(snapshot(T0 + 9 * H, true), 'coins');
      expect([store.watchingSince().get('main'), brief(store).length]).toEqual([T0, 1]);
    } finally {
      store.close();
    }
    t = { ...t, store: StateStore.open(t.dir) };
  });

  it('a store of schema 4 gets its outages from the kept changes at open', () => {
    script(t.store);
    t.store.close();
    const db = new Database(join(t.dir, 'spotwatch.db'));
    db.exec('DROP TABLE outages; DROP TABLE watching');
    db.pragma('user_version = 4');
    db.close();
    const store = StateStore.open(t.dir);
    try {
      expect(brief(store)).toEqual([
        ['BTC', 'BTC', 'deposit', T0 + 5 * H, null, []],
        ['USDT', 'TRX', 'withdraw', T0 + H, T0 + 3 * H, ['maintenance <b>&', 'maintenance extended']],
        ['USDT', 'ETH', 'withdraw', null, T0 + 6 * H, []],
      ]);
      // Watching began with the stored coin list (older than any change).
      expect(store.watchingSince()).toEqual(new Map([['main', T0]]));
    } finally {
      store.close();
    }
    t = { ...t, store: StateStore.open(t.dir) };
  });
});

it('a network removed (or its coin delisted) while closed ends its outage', () => {
  script(t.store);
  t.store.appendChanges([{ kind: 'coin_delisted', exchange: 'main', coin: 'BTC', before: null, after: null, at: T0 + 7 * H }]);
  expect(brief(t.store)[0]).toEqual(['BTC', 'BTC', 'deposit', T0 + 5 * H, T0 + 7 * H, []]);
});

it('a closure takes the message its network already had, from the coin list stored with it', () => {
  script(t.store);
  t.store.appendChanges([change('deposit_enabled', 'BTC', 'BTC', T0 + 6 * H, true), change('deposit_desc_set', 'BTC', 'BTC', T0 + 7 * H, 'node upgrade')]);
  t.store.appendChanges([change('deposit_disabled', 'BTC', 'BTC', T0 + 8 * H, false)]);
  const s = snapshot(T0 + 8 * H, true);
  const btc = s.coins.get('BTC')!;
  t.store.saveSnapshot({ ...s, coins: new Map([...s.coins, ['BTC', { ...btc, networkList: btc.networkList.map((n) => ({ ...n, depositEnable: false, depositDesc: 'node upgrade' })) }]]) }, 'coins');
  expect(brief(t.store)[0]).toEqual(['BTC', 'BTC', 'deposit', T0 + 8 * H, null, ['node upgrade']]);
});
