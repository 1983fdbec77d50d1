import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { silentLogger } from '../../src/lib/logger';
import type { Delivery } from '../../src/notify/notifier';
import { HeldOutbox } from '../../src/notify/held-outbox';
import { StateStore } from '../../src/store/store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-held-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function delivery(groupKey: string): Delivery {
  return {
    notification: { version: '4', groupKey, truncatedAlerts: 0, status: 'firing', receiver: 'hook', groupLabels: {}, commonLabels: {}, commonAnnotations: {}, externalURL: 'http://x', alerts: [] },
    idempotencyKey: `key-${groupKey}`,
  };
}

/** A real store whose writes are refused (as on a full disk) while `full`. */
function failing(real: StateStore) {
  const d = { full: false, refused: 0, store: Object.create(real) as StateStore };
  for (const m of ['commitDeliveries', 'writeHeld', 'deliveryDone', 'deliveryRetry', 'deliveryDead'] as const) {
    const original = real[m].bind(real) as (...a: unknown[]) => unknown;
    (d.store as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
      if (d.full) {
        d.refused++;
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      }
      return original(...a);
    };
  }
  return d;
}

const item = (key: string) => ({ receiver: 'hook', groupKey: key, delivery: delivery(key), entry: { firing: [key], resolved: [], at: 5 } });
const keys = (items: { delivery: Delivery }[]) => items.map((i) => i.delivery.notification.groupKey);

describe('HeldOutbox', () => {
  it('holds what the store refuses, hands it out after the store’s own, and writes it all back in one go', () => {
    const real = StateStore.open(dir);
    const d = failing(real);
    const errors: unknown[] = [];
    const outbox = new HeldOutbox({ store: d.store, logger: silentLogger(), onWriteError: (e) => errors.push(e), onDropped: () => undefined });

    outbox.commit([item('a')], [], 1);
    d.full = true;
    outbox.commit([item('b')], [], 2);
    outbox.commit([item('c')], [], 3); // held already: not even tried (order)
    expect(errors).toHaveLength(1);
    expect(outbox.holding).toBe(true);
    expect(keys(outbox.dueDeliveries('hook', 10, 10))).toEqual(['a', 'b', 'c']);
    expect(outbox.logEntry('hook', 'b')).toEqual({ firing: ['b'], resolved: [], at: 5 });
    expect(outbox.pendingDeliveries('hook')).toBe(3);

    // Delivered while the disk is full: not handed out again, though the store could not be told.
    const [a, b] = outbox.dueDeliveries('hook', 10, 10);
    outbox.deliveryDone(a?.id as number, 6);
    outbox.deliveryRetry(b?.id as number, 1, 50, 'webhook answered HTTP 503');
    expect(errors).toHaveLength(2);
    expect(keys(outbox.dueDeliveries('hook', 10, 10))).toEqual([]); // b waits for its retry, c behind it
    expect(outbox.nextDeliveryAt('hook')).toBe(50);
    expect(outbox.pendingDeliveries('hook')).toBe(2);
    expect(outbox.retry()).toBe(false);
    expect(d.refused).toBe(3);

    d.full = false;
    expect(outbox.retry()).toBe(true);
    expect(outbox.holding).toBe(false);
    expect(real.dueDeliveries('hook', 100, 10).map((x) => [x.delivery.notification.groupKey, x.attempts, x.nextAt])).toEqual([['b', 1, 50], ['c', 0, 3]]);
    expect(real.logEntry('hook', 'c')).toEqual({ firing: ['c'], resolved: [], at: 5 });
    expect(real.pendingDeliveries('hook')).toBe(2);
    // A held delivery handed out before it was written back is finished in the store.
    const held = outbox.dueDeliveries('hook', 100, 10)[0];
    expect(held?.delivery.notification.groupKey).toBe('b');
    outbox.deliveryDone(held?.id as number, 60);
    expect(keys(real.dueDeliveries('hook', 100, 10))).toEqual(['c']);
    real.close();
  });

  it('holds on a real SQLITE_FULL (the file capped at its size) and writes it all back when there is room', () => {
    const store = StateStore.open(dir);
    // The store's own connection: max_page_count is per connection.
    const db = (store as unknown as { db: Database.Database }).db;
    db.pragma(`max_page_count = ${String(db.pragma('page_count', { simple: true }))}`);
    const errors: unknown[] = [];
    const outbox = new HeldOutbox({ store, logger: silentLogger(), onWriteError: (e) => errors.push(e), onDropped: () => undefined });
    const big = item('big');
    big.delivery.notification.commonAnnotations = { description: 'x'.repeat(20_000) };

    outbox.commit([big], [7], 1);
    expect(errors.map((e) => [(e as { code?: unknown }).code, (e as Error).message])).toEqual([['SQLITE_FULL', 'database or disk is full']]);
    expect(keys(outbox.dueDeliveries('hook', 10, 10))).toEqual(['big']);
    expect(outbox.retry()).toBe(false);
    expect(errors).toHaveLength(2);
    expect(store.pendingDeliveries('hook')).toBe(0);

    db.pragma('max_page_count = 1073741823');
    expect(outbox.retry()).toBe(true);
    expect(store.dueDeliveries('hook', 10, 10).map((x) => [x.delivery.notification.groupKey, x.delivery.notification.commonAnnotations.description?.length])).toEqual([['big', 20_000]]);
    expect(store.logEntry('hook', 'big')).toEqual({ firing: ['big'], resolved: [], at: 5 });
    store.close();
  });

  it('drops the oldest held notification past its limit, says so and counts it', () => {
    const real = StateStore.open(dir);
    const d = failing(real);
    d.full = true;
    const dropped: string[] = [];
    const outbox = new HeldOutbox({ store: d.store, logger: silentLogger(), onWriteError: () => undefined, onDropped: (r, x) => dropped.push(`${r} ${x.notification.groupKey}`), limit: 2 });
    outbox.commit([item('a'), item('b'), item('c')], [], 1);
    expect(dropped).toEqual(['hook a']);
    expect(keys(outbox.dueDeliveries('hook', 10, 10))).toEqual(['b', 'c']);
    real.close();
  });
});

describe('dead letter counts', () => {
  it('are counted again after a delivery dies directly or through held writes, and not otherwise', () => {
    const store = StateStore.open(dir);
    try {
      store.commitDeliveries([item('a'), item('b'), { ...item('c'), receiver: 'mail' }], 1);
      const [a, b] = store.dueDeliveries('hook', 10, 10);
      const [c] = store.dueDeliveries('mail', 10, 10);
      expect(Object.fromEntries(store.deadLetterCounts())).toEqual({});
      store.deliveryDead(a!.id, 3, 'HTTP 500', 2);
      expect(Object.fromEntries(store.deadLetterCounts())).toEqual({ hook: 1 });
      store.deliveryDone(b!.id, 3);
      expect(Object.fromEntries(store.deadLetterCounts())).toEqual({ hook: 1 });
      store.writeHeld({ marks: [{ id: c!.id, state: 'dead', attempts: 5, nextAt: 4, error: 'SMTP 550', at: 4 }], log: [], unpend: [], deliveries: [] });
      expect(Object.fromEntries(store.deadLetterCounts())).toEqual({ hook: 1, mail: 1 });
      // What the counts say is what a fresh count of the table says.
      store.close();
      const again = StateStore.open(dir);
      expect(Object.fromEntries(again.deadLetterCounts())).toEqual({ hook: 1, mail: 1 });
      again.close();
    } finally {
      store.close();
    }
  });
});
