import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Alert } from '../../src/alerts/alert';
import type { Delivery } from '../../src/notify/notifier';
import type { Change } from '../../src/snapshot/changes';
import { applyCoins, applyTickers } from '../../src/snapshot/merge';
import { emptySnapshot } from '../../src/snapshot/model';
import type { CommitDelivery } from '../../src/notify/outbox-port';
import { GZIP_BODY_CHARS } from '../../src/store/outbox';
import { StateStore } from '../../src/store/store';
import { coinRecord, tickerRecord } from '../support/records';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-rows-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function alert(fp: string, summary: string): Alert {
  return {
    fingerprint: fp, ruleId: 'W:1', entity: `${fp}\u0000TRX`,
    labels: { alertname: 'W', exchange: 'main', severity: 'critical', coin: fp, network: 'TRX' },
    annotations: { summary }, status: 'firing', activeAt: 1, startsAt: 1, endsAt: null, lastActiveAt: 2, lastNotifiedAt: 1, value: 1, event: false,
  };
}

function delivery(groupKey: string): Delivery {
  return {
    notification: {
      version: '4', groupKey, truncatedAlerts: 0, status: 'firing', receiver: 'hook', groupLabels: {}, commonLabels: {}, commonAnnotations: {}, externalURL: 'http://x',
      alerts: [{ status: 'firing', labels: { alertname: 'W' }, annotations: {}, startsAt: '2026-01-01T00:00:00Z', endsAt: '0001-01-01T00:00:00Z', generatorURL: 'http://x', fingerprint: 'f' }],
    },
    idempotencyKey: `key-${groupKey}`,
  };
}

const change = (i: number, after: string): Change => ({ kind: 'withdraw_desc_set', exchange: 'main', coin: 'USDT', network: 'TRX', before: null, after, at: 1000 + i });

const snap = applyTickers(
  applyCoins(emptySnapshot('main'), { records: [coinRecord('USDT', [{ network: 'TRX', withdrawDesc: 'MARK_COINS' }]), coinRecord('BTC', [{ network: 'BTC' }])], issues: [] }, 10),
  { records: [tickerRecord('MARKTICKERUSDT')], issues: [] },
  20,
);

/** A store with one or more rows of every kind, each with a marker in its body; closed (WAL folded into the file). */
function fill(): void {
  const store = StateStore.open(dir);
  store.transaction(() => {
    store.saveSnapshot(snap, 'coins');
    store.saveSnapshot(snap, 'tickers');
    store.saveAlerts('main', [alert('AAAA000000000001', 'MARK_ALERT_1'), alert('AAAA000000000002', 'MARK_ALERT_2')]);
    store.saveHistory('main', new Map([['BTCUSDT', { samples: [{ at: 5, price: 1.5 }], signature: 'MARK_HISTORY', unchangedSince: 5 }]]));
    store.appendChanges([change(1, 'MARK_CHANGE_1'), change(2, 'MARK_CHANGE_2')]);
  });
  store.addPending([alert('BBBB000000000001', 'MARK_PENDING')]);
  store.commitDeliveries([{ receiver: 'hook', groupKey: 'MARK_OUTBOX_KEY', delivery: delivery('MARK_OUTBOX_KEY'), entry: { firing: ['MARK_NFLOG'], resolved: [], at: 7 } }], 7);
  store.commitDeliveries([{ receiver: 'hook', groupKey: 'MARK_DEAD_KEY', delivery: delivery('MARK_DEAD_KEY'), entry: undefined }], 8);
  store.deliveryDead(2, 1, 'webhook answered HTTP 400', 9);
  store.saveSilence({ id: 's1', matchers: [{ label: 'coin', pattern: 'X' }], startsAt: 0, endsAt: 9e12, comment: 'MARK_SILENCE', createdBy: 'me' });
  store.close();
}

/**
 * Overwrites bytes of the file in place, where `from` occurs, with `to` (as long): what a bad
 * sector or a stray write does. (Every occurrence: a page split can leave a stale copy of a row
 * in a page, and the damage must hit the live one.)
 */
function overwrite(from: string, to: string): void {
  expect(to).toHaveLength(from.length);
  const file = join(dir, 'spotwatch.db');
  const bytes = readFileSync(file);
  let at = bytes.indexOf(from);
  expect(at).toBeGreaterThan(0);
  for (; at !== -1; at = bytes.indexOf(from, at + 1)) bytes.write(to, at, 'latin1');
  writeFileSync(file, bytes);
}

function open(): { store: StateStore; reports: Record<string, number>[]; moved: string[] } {
  const reports: Record<string, number>[] = [];
  const moved: string[] = [];
  const store = StateStore.open(dir, (m) => moved.push(m), (rows) => reports.push({ ...rows }));
  return { store, reports, moved };
}

/** What a start reads, in short. */
function kept(store: StateStore) {
  const s = store.loadSnapshot('main');
  return {
    coins: s === undefined ? null : [...s.coins.keys()],
    tickers: s === undefined ? null : [...s.tickers.keys()],
    alerts: [...store.loadAlerts().values()].map((a) => a.annotations.summary),
    pending: store.loadPending().map((p) => p.alert.annotations.summary),
    nflog: store.logEntry('hook', 'MARK_OUTBOX_KEY')?.firing ?? null,
    outbox: store.dueDeliveries('hook', 100, 10).map((d) => d.delivery.notification.groupKey),
    dead: store.deadLetters(10).map((d) => d.delivery.notification.groupKey),
    silences: store.loadSilences().map((x) => x.comment),
    history: store.loadHistory('main') === undefined ? null : [...(store.loadHistory('main')?.values() ?? [])].map((h) => h.signature),
    changes: store.queryChanges({ limit: 10 }).map((c) => c.after),
  };
}

const ALL = {
  coins: ['USDT', 'BTC'],
  tickers: ['MARKTICKERUSDT'],
  alerts: ['MARK_ALERT_1', 'MARK_ALERT_2'],
  pending: ['MARK_PENDING'],
  nflog: ['MARK_NFLOG'],
  outbox: ['MARK_OUTBOX_KEY'],
  dead: ['MARK_DEAD_KEY'],
  silences: ['MARK_SILENCE'],
  history: ['MARK_HISTORY'],
  changes: ['MARK_CHANGE_2', 'MARK_CHANGE_1'],
};

describe('a damaged row in the state store', () => {
  it('reads every row back when nothing is damaged, and reports nothing', () => {
    fill();
    const { store, reports, moved } = open();
    expect(kept(store)).toEqual(ALL);
    expect(reports).toEqual([]);
    expect(moved).toEqual([]);
    store.close();
  });

  // Each case: bytes overwritten inside one row's JSON (not JSON any more, or JSON of the
  // wrong shape; both pass quick_check), and what a start still reads.
  it.each([
    // A coin's row: the coins part is dropped whole (a part missing a coin would report it delisted).
    ['snapshot coins, not JSON', 'snapshot_records', '"MARK_COINS"', '"MARK_COINS}', { coins: [] }],
    ['snapshot coins, a text turned number', 'snapshot_records', '"withdrawDesc":"MARK_COINS"', '"withdrawDesc":123456789012', { coins: [] }],
    ['snapshot coins, the part\'s own row', 'snapshots', '{"records":2}', '{"records"!2}', { coins: [] }],
    ['snapshot tickers', 'snapshots', '"MARKTICKERUSDT"', '"MARKTICKERUSDT:', { tickers: [] }],
    ['an alert', 'alerts', '"MARK_ALERT_1"', '{MARK_ALERT_1"', { alerts: ['MARK_ALERT_2'] }],
    ['a pending alert, a status no alert has', 'pending', '"MARK_PENDING"},"status":"firing"', '"MARK_PENDING"},"status":"fired!"', { pending: [] }],
    ['a notification log entry', 'nflog', '"MARK_NFLOG"', '"MARK_NFLOG!', { nflog: null }],
    ['a delivery in the outbox', 'outbox', 'key-MARK_OUTBOX_KEY"', 'key-MARK_OUTBOX_KEY\\', { outbox: [] }],
    ['a dead letter', 'outbox', 'key-MARK_DEAD_KEY"', 'key-MARK_DEAD_KEY\\', { dead: [] }],
    ['a silence', 'silences', '"MARK_SILENCE"', '["MARK_SILENCE', { silences: [] }],
    ['the ticker history', 'history', '"MARK_HISTORY"', ':MARK_HISTORY"', { history: null }],
    ['a change', 'changes', '"MARK_CHANGE_1"', '{MARK_CHANGE_1"', { changes: ['MARK_CHANGE_2'] }],
  ])('%s: is set aside, said once, and the rest is kept', (_name, table, from, to, lost) => {
    fill();
    overwrite(from, to);
    // SQLite's own check does not see it.
    const raw = new Database(join(dir, 'spotwatch.db'));
    expect(raw.pragma('quick_check', { simple: true })).toBe('ok');
    raw.close();

    const { store, reports, moved } = open();
    expect(kept(store)).toEqual({ ...ALL, ...lost });
    expect(reports).toEqual([{ [table]: 1 }]);
    expect(moved).toEqual([]);
    store.close();

    // Kept for a look, out of the way: the next start reads the same and reports nothing.
    const db = new Database(join(dir, 'spotwatch.db'), { readonly: true });
    const aside = db.prepare('SELECT source, row FROM set_aside').all() as { source: string; row: string }[];
    db.close();
    expect(aside.map((a) => a.source)).toEqual([table]);
    expect(aside[0]?.row).toContain(to.replace(/\\/g, '\\\\').replace(/"/g, '\\"'));
    const again = open();
    expect(kept(again.store)).toEqual({ ...ALL, ...lost });
    expect(again.reports).toEqual([]);
    again.store.close();
  });

  it('moves the whole file aside when the damage is wider than a few rows', () => {
    const store = StateStore.open(dir);
    const marker = (i: number): string => `MARK_${String(i).padStart(3, '0')}`;
    store.saveAlerts('main', Array.from({ length: 20 }, (_, i) => alert(`AAAA000000000${String(i).padStart(3, '0')}`, marker(i))));
    store.close();
    for (let i = 0; i < 12; i++) overwrite(`"${marker(i)}"`, `{${marker(i)}"`);

    const { store: fresh, reports, moved } = open();
    expect(moved).toEqual(['12 of 20 rows unreadable: damage wider than a few rows']);
    expect(reports).toEqual([]);
    expect(fresh.loadAlerts().size).toBe(0);
    expect(readdirSync(dir).filter((f) => f.includes('.corrupt-'))).toHaveLength(1);
    fresh.close();
  });
});

describe('a delivery committed by this process', () => {
  it('goes to its sender as committed, with its notification as JSON, without reading its 3 MB row back; another process reads the row to the same delivery', () => {
    const store = StateStore.open(dir);
    const d = delivery('MARK_OWN_KEY');
    store.commitDeliveries([{ receiver: 'hook', groupKey: 'MARK_OWN_KEY', delivery: d, entry: undefined }], 7);
    // The row as another reader sees it: what JSON.stringify(delivery) gives.
    const raw = new Database(join(dir, 'spotwatch.db'), { readonly: true });
    const row = raw.prepare('SELECT body FROM outbox WHERE id = 1').get() as { body: string };
    raw.close();
    expect(row.body).toBe(JSON.stringify(d));
    const [item] = store.dueDeliveries('hook', 7, 10);
    expect(item?.delivery).toBe(d);
    expect(item?.notificationJson).toBe(JSON.stringify(d.notification));
    store.close();
    const again = StateStore.open(dir);
    const [read] = again.dueDeliveries('hook', 7, 10);
    expect({ delivery: read?.delivery, json: read?.notificationJson }).toEqual({ delivery: d, json: undefined });
    again.close();
  });

  it('is stored compressed past GZIP_BODY_CHARS, and reads back, after a restart and as a dead letter, as the same delivery', () => {
    const big = delivery('MARK_BIG');
    const one = big.notification.alerts[0] as Delivery['notification']['alerts'][number];
    big.notification.alerts = Array.from({ length: 600 }, (_, i) => ({ ...one, fingerprint: `f${i}`, annotations: { summary: `closed <b>"${i}"</b> \u2028 é` } }));
    const small = delivery('MARK_SMALL');
    const items: CommitDelivery[] = [big, small].map((d) => ({ receiver: 'hook', groupKey: d.notification.groupKey, delivery: d, entry: undefined, notificationJson: JSON.stringify(d.notification) }));
    expect(JSON.stringify(big).length).toBeGreaterThan(GZIP_BODY_CHARS);
    const store = StateStore.open(dir);
    store.commitDeliveries(items, 7);
    store.close();
    const raw = new Database(join(dir, 'spotwatch.db'), { readonly: true });
    const rows = raw.prepare('SELECT typeof(body) AS type, length(body) AS bytes FROM outbox ORDER BY id').all() as { type: string; bytes: number }[];
    raw.close();
    expect(rows.map((r) => r.type)).toEqual(['blob', 'text']);
    expect(rows[0]?.bytes).toBeLessThan(JSON.stringify(big).length / 5);
    const again = StateStore.open(dir);
    expect(again.dueDeliveries('hook', 7, 10).map((i) => i.delivery)).toEqual([big, small]);
    again.deliveryDead(1, 3, 'gone', 8);
    expect(again.deadLetters(10).map((d) => d.delivery)).toEqual([big]);
    again.close();
    const third = StateStore.open(dir);
    expect(third.deadLetters(10).map((d) => d.delivery)).toEqual([big]);
    third.close();
  });
});
