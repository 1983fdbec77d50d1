import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Alert } from '../../src/alerts/alert';
import type { Change } from '../../src/snapshot/changes';
import { applyCoins, applyTickers } from '../../src/snapshot/merge';
import { emptySnapshot } from '../../src/snapshot/model';
import type { PollStore } from '../../src/poll/persist';
import { StateStore } from '../../src/store/store';
import { coinRecord, tickerRecord } from '../support/records';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const alert: Alert = {
  fingerprint: 'abcdef0123456789', ruleId: 'W:1', entity: 'USDT\u0000TRX',
  labels: { alertname: 'W', exchange: 'main', severity: 'critical', coin: 'USDT', network: 'TRX' },
  annotations: { summary: 's' }, status: 'firing', activeAt: 1, startsAt: 1, endsAt: null, lastActiveAt: 2, lastNotifiedAt: 1, value: 1, event: false,
};

function change(i: number, over: Partial<Change> = {}): Change {
  return { kind: 'withdraw_disabled', exchange: 'main', coin: 'USDT', network: 'TRX', before: true, after: false, at: 1000 + i, ...over };
}

describe('StateStore', () => {
  it('gives back exactly what it was given after a reopen (a restart)', () => {
    const snap = applyTickers(applyCoins(emptySnapshot('main'), { records: [coinRecord('USDT', [{ network: 'TRX', withdrawIntegerMultiple: '1E-8' }])], issues: [] }, 10), { records: [tickerRecord('BTCUSDT')], issues: [] }, 20);
    const store = StateStore.open(dir);
    store.transaction(() => {
      store.saveSnapshot(snap, 'coins');
      store.saveSnapshot(snap, 'tickers');
      store.saveAlerts('main', [alert]);
      store.saveHistory('main', new Map([['BTCUSDT', { samples: [{ at: 5, price: 1.5 }], signature: 'x', unchangedSince: 5 }]]));
    });
    store.close();

    const again = StateStore.open(dir);
    expect(again.loadSnapshot('main')).toEqual(snap);
    expect(again.loadSnapshot('other')).toBeUndefined();
    expect([...again.loadAlerts().values()]).toEqual([alert]);
    expect([...(again.loadHistory('main') ?? [])]).toEqual([['BTCUSDT', { samples: [{ at: 5, price: 1.5 }], signature: 'x', unchangedSince: 5 }]]);
    again.close();
  });

  it('replaces the active alerts of one exchange only', () => {
    const store = StateStore.open(dir);
    const other = { ...alert, fingerprint: '1111111111111111', labels: { ...alert.labels, exchange: 'b' } };
    store.saveAlerts('main', [alert]);
    store.saveAlerts('b', [other]);
    store.saveAlerts('main', []);
    expect([...store.loadAlerts().keys()]).toEqual(['1111111111111111']);
    store.close();
  });

  it('lists changes newest first, filtered and paged, and prunes old ones', () => {
    const store = StateStore.open(dir);
    store.appendChanges([change(1), change(2, { coin: 'BTC', network: 'BTC' }), change(3, { kind: 'deposit_desc_set', before: null, after: 'msg' }), change(4, { coin: undefined, network: undefined, symbol: 'X', kind: 'symbol_listed', before: null, after: '1' })]);
    expect(store.queryChanges({ limit: 10 }).map((c) => c.id)).toEqual([4, 3, 2, 1]);
    expect(store.queryChanges({ limit: 10, coin: 'USDT' }).map((c) => c.id)).toEqual([3, 1]);
    expect(store.queryChanges({ limit: 10, kind: 'deposit_desc_set' })).toEqual([{ id: 3, ...change(3, { kind: 'deposit_desc_set', before: null, after: 'msg' }) }]);
    expect(store.queryChanges({ limit: 2 }).map((c) => c.id)).toEqual([4, 3]);
    expect(store.queryChanges({ limit: 2, before: 3 }).map((c) => c.id)).toEqual([2, 1]);
    expect(store.queryChanges({ limit: 10, since: 1003 }).map((c) => c.id)).toEqual([4, 3]);
    expect(store.queryChanges({ limit: 10, kind: 'symbol_listed' })[0]).toEqual({ id: 4, kind: 'symbol_listed', exchange: 'main', symbol: 'X', before: null, after: '1', at: 1004 });
    expect(store.queryChanges({ limit: 10, symbol: 'X' }).map((c) => c.id)).toEqual([4]);
    expect(store.queryChanges({ limit: 10, symbol: 'Y' })).toEqual([]);
    expect(store.pruneChanges(1003)).toBe(2);
    expect(store.queryChanges({ limit: 10 }).map((c) => c.id)).toEqual([4, 3]);
    store.close();
  });

  it('moves a corrupt file aside, says so, and starts afresh', () => {
    writeFileSync(join(dir, 'spotwatch.db'), 'this is not a database, just text that is long enough to have a header '.repeat(20));
    const problems: string[] = [];
    const store = StateStore.open(dir, (message, movedTo) => problems.push(`${message} -> ${movedTo.replace(dir, 'DIR')}`));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^file is not a database -> DIR\/spotwatch\.db\.corrupt-\d{4}-/);
    expect(readdirSync(dir).filter((f) => f.includes('.corrupt-'))).toHaveLength(1);
    expect(store.loadAlerts().size).toBe(0);
    store.close();
  });
});

describe('StateStore checkpoints', () => {
  it('folds a large write into the database file after its commit, in a turn of its own on the connection\'s thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spotwatch-store-'));
    const store = StateStore.open(dir);
    const file = join(dir, 'spotwatch.db');
    const before = statSync(file).size;
    // 5 MB of change rows in one transaction: past SQLite's own checkpoint threshold (1,000 pages).
    const big = 'x'.repeat(5_000);
    store.transaction(() => store.appendChanges(Array.from({ length: 1_000 }, (_, i): Change => ({ kind: 'withdraw_desc_set', exchange: 'main', coin: 'C', network: 'N', before: null, after: `${big}${i}`, at: i }))));
    const afterCommit = statSync(file).size;
    expect({ inCommit: afterCommit - before, started: store.checkpointsStarted }).toEqual({ inCommit: 0, started: 0 });
    await new Promise((r) => setImmediate(r));
    expect(statSync(file).size - before).toBeGreaterThan(5_000_000);
    expect(store.checkpointsStarted).toBe(1);
    expect(store.queryChanges({ limit: 1 })[0]?.after).toBe(`${big}999`);
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks for a checkpoint only when rows were written since the last one, though the WAL file keeps its size', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spotwatch-store-'));
    const store = StateStore.open(dir);
    const big = 'x'.repeat(5_000);
    const write = (from: number) => store.transaction(() => store.appendChanges(Array.from({ length: 1_000 }, (_, i): Change => ({ kind: 'withdraw_desc_set', exchange: 'main', coin: 'C', network: 'N', before: null, after: `${big}${from + i}`, at: i }))));
    const turn = () => new Promise((r) => setImmediate(r));
    write(0);
    await turn();
    expect(store.checkpointsStarted).toBe(1);
    // Transactions that write no rows, and the checks of the timer: the WAL is as large as before, nothing new in it.
    for (let i = 0; i < 5; i++) {
      store.transaction(() => store.queryChanges({ limit: 1 }));
      await turn();
    }
    expect(statSync(join(dir, 'spotwatch.db-wal')).size).toBeGreaterThan(4_000_000);
    expect(store.checkpointsStarted).toBe(1);
    write(1_000);
    await turn();
    expect(store.checkpointsStarted).toBe(2);
    store.close();
    // The last connection folded the WAL in and removed it.
    expect(existsSync(join(dir, 'spotwatch.db-wal'))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('StateStore contract', () => {
  it('is the PollStore the poll path writes through, and what it wrote is there after a restart', () => {
    const store = StateStore.open(dir);
    // Checked by the compiler: StateStore keeps satisfying the poll path's narrower interface.
    const poll: PollStore = store;
    poll.transaction(() => {
      poll.appendChanges([change(1)]);
      poll.writeAlerts([alert], []);
    });
    store.close();
    const again = StateStore.open(dir);
    expect({ alerts: [...again.loadAlerts().values()], changes: again.queryChanges({ limit: 10 }).map((c) => c.id) }).toEqual({ alerts: [alert], changes: [1] });
    again.close();
  });

  it('transaction: a throw inside it is thrown back, and none of its writes land', () => {
    const store = StateStore.open(dir);
    store.saveAlerts('main', [alert]);
    expect(() =>
      store.transaction(() => {
        store.saveAlerts('main', []);
        store.appendChanges([change(1)]);
        throw new Error('halfway');
      }),
    ).toThrow('halfway');
    expect({ alerts: store.loadAlerts().size, changes: store.countChanges(10) }).toEqual({ alerts: 1, changes: 0 });
    store.close();
  });

  it('transaction: a write the store refuses (a full disk) throws, the store is as before, and takes writes again when it can', () => {
    const store = StateStore.open(dir);
    store.appendChanges([change(1)]);
    // The store's own connection: max_page_count is per connection.
    const db = store['db'];
    db.pragma(`max_page_count = ${String(db.pragma('page_count', { simple: true }))}`);
    const big = Array.from({ length: 100 }, (_, i) => change(2 + i, { kind: 'withdraw_desc_set', before: null, after: 'x'.repeat(5_000) }));
    const write = (): void => store.transaction(() => {
      store.saveAlerts('main', [alert]);
      store.appendChanges(big);
    });
    expect(write).toThrow(expect.objectContaining({ code: 'SQLITE_FULL' }) as Error);
    expect({ alerts: store.loadAlerts().size, changes: store.countChanges(1_000) }).toEqual({ alerts: 0, changes: 1 });
    db.pragma('max_page_count = 1073741823');
    write();
    expect({ alerts: store.loadAlerts().size, changes: store.countChanges(1_000) }).toEqual({ alerts: 1, changes: 101 });
    store.close();
  });
});
