import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Change } from '../../src/snapshot/changes';
import { StateStore } from '../../src/store/store';

let dir: string;
let store: StateStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-store-'));
  store = StateStore.open(dir);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const change = (kind: Change['kind'], exchange: string, coin: string, network: string, at: number): Change => ({ kind, exchange, coin, network, before: true, after: false, at });

describe('the queries of the status page and the silence retention', () => {
  it('closedSince: the last closure of each network and direction of one exchange, nothing else', () => {
    store.appendChanges([
      change('withdraw_disabled', 'main', 'USDT', 'TRX', 10),
      change('withdraw_enabled', 'main', 'USDT', 'TRX', 20),
      change('withdraw_disabled', 'main', 'USDT', 'TRX', 30),
      change('deposit_disabled', 'main', 'USDT', 'TRX', 15),
      change('withdraw_desc_set', 'main', 'USDT', 'TRX', 40),
      change('withdraw_disabled', 'other', 'USDT', 'TRX', 50),
      change('deposit_disabled', 'main', 'BTC', 'BTC', 5),
    ]);
    expect(store.closedSince('main').sort((a, b) => a.at - b.at)).toEqual([
      { kind: 'deposit_disabled', coin: 'BTC', network: 'BTC', at: 5 },
      { kind: 'deposit_disabled', coin: 'USDT', network: 'TRX', at: 15 },
      { kind: 'withdraw_disabled', coin: 'USDT', network: 'TRX', at: 30 },
    ]);
  });

  it('countChanges stops counting at its bound', () => {
    store.appendChanges([1, 2, 3, 4, 5].map((at) => change('withdraw_disabled', 'main', 'USDT', 'TRX', at)));
    expect([store.countChanges(100), store.countChanges(3)]).toEqual([5, 3]);
  });

  it('pruneSilences deletes the silences that ended at or before the cutoff, and says how many', () => {
    for (const [id, endsAt] of [['a', 100], ['b', 200], ['c', 300]] as const) store.saveSilence({ id, matchers: [{ label: 'coin', pattern: 'X' }], startsAt: 0, endsAt, comment: '', createdBy: '' });
    expect(store.pruneSilences(200)).toBe(2);
    expect(store.loadSilences().map((s) => s.id)).toEqual(['c']);
  });

  it('adds the closures index to a store of the previous schema (3) at open, keeping its history', () => {
    store.appendChanges([change('withdraw_disabled', 'main', 'USDT', 'TRX', 10)]);
    store.close();
    const db = new Database(join(dir, 'spotwatch.db'));
    db.exec('DROP INDEX changes_closed');
    db.pragma('user_version = 3');
    db.close();
    store = StateStore.open(dir);
    const check = new Database(join(dir, 'spotwatch.db'), { readonly: true });
    const indexes = (check.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'changes'").all() as { name: string }[]).map((r) => r.name);
    const version = check.pragma('user_version', { simple: true });
    check.close();
    expect([indexes.includes('changes_closed'), version, store.closedSince('main')]).toEqual([true, 6, [{ kind: 'withdraw_disabled', coin: 'USDT', network: 'TRX', at: 10 }]]);
  });
});
