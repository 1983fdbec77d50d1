import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Alert } from '../../src/alerts/alert';
import type { Delivery } from '../../src/notify/notifier';
import { GONE_MESSAGE } from '../../src/store/recreate';
import { StateStore } from '../../src/store/store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-recreate-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const alert = (fingerprint: string): Alert => ({
  fingerprint, ruleId: 'W:1', entity: 'USDT\u0000TRX',
  labels: { alertname: 'W', exchange: 'main', severity: 'critical', coin: 'USDT', network: 'TRX' },
  annotations: { summary: 's' }, status: 'firing', activeAt: 1, startsAt: 1, endsAt: null, lastActiveAt: 2, lastNotifiedAt: 1, value: 1, event: false,
});
const delivery = (groupKey: string): Delivery => ({
  notification: { version: '4', groupKey, truncatedAlerts: 0, status: 'firing', receiver: 'hook', groupLabels: {}, commonLabels: {}, commonAnnotations: {}, externalURL: 'http://x', alerts: [] },
  idempotencyKey: `key-${groupKey}`,
});
const told = (groupKey: string) => ({ receiver: 'hook', groupKey, delivery: delivery(groupKey), entry: { firing: [groupKey], resolved: [], at: 5 } });

function deleteFiles(): void {
  for (const ext of ['', '-wal', '-shm']) rmSync(join(dir, `spotwatch.db${ext}`));
}

/** What a restart would find: the alerts, the notification log, the outbox (id and state). */
function onDisk(): { alerts: string[]; log: (string | undefined)[]; outbox: [number, string][] } {
  const s = StateStore.open(dir);
  try {
    const due = s.dueDeliveries('hook', Number.MAX_SAFE_INTEGER, 100);
    return {
      alerts: [...s.loadAlerts().keys()].sort(),
      log: ['g1', 'g2', 'g3', 'g4'].map((g) => s.logEntry('hook', g)?.firing.join()),
      outbox: due.map((d) => [d.id, d.delivery.notification.groupKey]),
    };
  } finally {
    s.close();
  }
}

describe('a store file deleted while the daemon runs', () => {
  it('goes unnoticed by SQLite: the writes go on into the deleted file, and a restart finds nothing', () => {
    const store = StateStore.open(dir);
    store.writeAlerts([alert('a1')], []);
    deleteFiles();
    store.writeAlerts([alert('a2')], []);
    expect(store.fileState()).toBe('gone');
    expect([...store.loadAlerts().keys()]).toEqual(['a1', 'a2']);
    store.close();
    expect(onDisk()).toEqual({ alerts: [], log: [undefined, undefined, undefined, undefined], outbox: [] });
  });

  it('is written again, whole, from what the connections read, and the other connections move to it without a write lost', () => {
    // Two connections to one file (the engine's and the main thread's, say).
    const poll = StateStore.open(dir);
    const delivery = StateStore.open(dir);
    poll.writeAlerts([alert('a1')], []);
    delivery.commitDeliveries([told('g1')], 5);
    delivery.deliveryDone(1, 6);
    expect([poll.fileState(), delivery.fileState()]).toEqual(['kept', 'kept']);

    deleteFiles();
    // Both write on, into the deleted file.
    poll.writeAlerts([alert('a2')], []);
    delivery.commitDeliveries([told('g2')], 7);
    expect([poll.fileState(), delivery.fileState()]).toEqual(['gone', 'gone']);

    // One connection's check writes a new file from what it reads: both connections' writes.
    expect(poll.recreate()).toBeGreaterThan(0);
    expect([poll.fileState(), delivery.fileState()]).toEqual(['kept', 'replaced']);
    expect(readdirSync(dir).filter((f) => !f.startsWith('spotwatch.db'))).toEqual([]);

    // Until its own check, the other connection's writes are refused (not lost into the deleted file).
    expect(() => delivery.commitDeliveries([told('g3')], 8)).toThrow(GONE_MESSAGE);
    expect(() => delivery.deliveryDone(2, 8)).toThrow(GONE_MESSAGE);
    delivery.reopen();
    expect(delivery.fileState()).toBe('kept');
    delivery.commitDeliveries([told('g3')], 8);
    poll.writeAlerts([alert('a3')], []);

    // A restart: every alert, every log entry; the outbox's ids go on from where they were (g1 was sent).
    expect(onDisk()).toEqual({ alerts: ['a1', 'a2', 'a3'], log: ['g1', 'g2', 'g3', undefined], outbox: [[2, 'g2'], [3, 'g3']] });
    poll.close();
    delivery.close();
  });

  it('is not made twice: a file already at the path is moved to, not written over', () => {
    const a = StateStore.open(dir);
    const b = StateStore.open(dir);
    a.writeAlerts([alert('a1')], []);
    deleteFiles();
    expect(a.recreate()).toBeGreaterThan(0);
    expect(b.fileState()).toBe('replaced');
    expect(b.recreate()).toBeUndefined();
    expect([b.fileState(), [...b.loadAlerts().keys()]]).toEqual(['kept', ['a1']]);
    a.close();
    b.close();
  });

  it('is written again when the whole state_dir went with it', () => {
    const state = join(dir, 'state');
    const store = StateStore.open(state);
    store.writeAlerts([alert('a1')], []);
    rmSync(state, { recursive: true });
    expect(store.fileState()).toBe('gone');
    expect(store.recreate()).toBeGreaterThan(0);
    store.close();
    const again = StateStore.open(state);
    expect([...again.loadAlerts().keys()]).toEqual(['a1']);
    again.close();
  });
});

describe("a store's WAL deleted while the daemon runs (the database file kept)", () => {
  it.each([[['-wal']], [['-shm']], [['-wal', '-shm']]])('%j deleted: noticed, written again whole from what the connections read, and the other connections move to it', (gone) => {
    const poll = StateStore.open(dir);
    const delivery = StateStore.open(dir);
    poll.writeAlerts([alert('a1')], []);
    delivery.commitDeliveries([told('g1')], 5);
    for (const ext of gone) rmSync(join(dir, `spotwatch.db${ext}`));
    // Both write on, into the WAL they opened.
    poll.writeAlerts([alert('a2')], []);
    delivery.commitDeliveries([told('g2')], 7);
    expect([poll.fileState(), delivery.fileState()]).toEqual(['wal-gone', 'wal-gone']);

    expect(poll.recreate()).toBeGreaterThan(0);
    expect([poll.fileState(), delivery.fileState()]).toEqual(['kept', 'replaced']);
    expect(() => delivery.commitDeliveries([told('g3')], 8)).toThrow(GONE_MESSAGE);
    delivery.reopen();
    delivery.commitDeliveries([told('g3')], 8);
    poll.writeAlerts([alert('a3')], []);
    expect(readdirSync(dir).sort()).toEqual(['spotwatch.db', 'spotwatch.db-shm', 'spotwatch.db-wal']);

    // A restart, or any new connection, finds every write.
    expect(onDisk()).toEqual({ alerts: ['a1', 'a2', 'a3'], log: ['g1', 'g2', 'g3', undefined], outbox: [[1, 'g1'], [2, 'g2'], [3, 'g3']] });
    poll.close();
    delivery.close();
  });

  it('the database file deleted alone (its WAL and index left): the new file does not take the old WAL for its own', () => {
    const store = StateStore.open(dir);
    store.writeAlerts([alert('a1')], []);
    rmSync(join(dir, 'spotwatch.db'));
    store.writeAlerts([alert('a2')], []);
    expect(store.fileState()).toBe('gone');
    expect(store.recreate()).toBeGreaterThan(0);
    store.writeAlerts([alert('a3')], []);
    expect(onDisk()).toEqual({ alerts: ['a1', 'a2', 'a3'], log: [undefined, undefined, undefined, undefined], outbox: [] });
    store.close();
  });
});
