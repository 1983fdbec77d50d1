import { gunzipSync, gzipSync } from 'node:zlib';
import { storedAlert, type Alert } from '../alerts/alert';
import type { LogEntry } from '../alerts/dedup';
import type { Delivery } from '../notify/notifier';
import type { CommitDelivery, DeadLetter, HeldWrites, OutboxItem } from '../notify/outbox-port';
import { parseRow, ROW_SCHEMAS } from '../storage/rows';
import type { Tables } from './tables';

/** A delivery committed by this process, and its notification as JSON. */
interface Committed {
  delivery: Delivery;
  json: string;
}

/** Characters of committed notifications kept at hand for the senders at most (about 64 MB). */
const COMMITTED_CHARS = 32_000_000;

/**
 * Bodies longer than this are stored gzip-compressed (a BLOB in the body column; shorter ones
 * stay text, readable with the sqlite3 shell): a storm's 4 MB notification took 15-50 ms to
 * insert, and a tenth of that compressed (level 1, 10-20 ms).
 */
export const GZIP_BODY_CHARS = 64 * 1024;

/** An outbox row's body: the Delivery as JSON, its notification already serialized; compressed past GZIP_BODY_CHARS. */
function deliveryRow(notificationJson: string, idempotencyKey: string): string | Buffer {
  const body = `{"notification":${notificationJson},"idempotencyKey":${JSON.stringify(idempotencyKey)}}`;
  return body.length > GZIP_BODY_CHARS ? gzipSync(body, { level: 1 }) : body;
}

/** An outbox body as stored (text, or gzip-compressed text) as text. */
export function bodyText(body: unknown): unknown {
  if (!Buffer.isBuffer(body)) return body;
  try {
    return gunzipSync(body).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * Delivery (tables `outbox`, `nflog`, `pending`): the alerts handed to the pipeline, the
 * deliveries it committed and what became of them (done, retry, dead letters), and the
 * notification log. Deliveries committed by this process are kept at hand for their senders.
 */
export class Outbox {
  /** Deliveries committed by this process and not yet finished, by outbox id (see dueDeliveries). */
  private readonly committed = new Map<number, Committed>();
  private committedChars = 0;
  /** Dead letters per receiver, counted once and kept until a delivery dies (read after every poll). */
  private deadCounts: Map<string, number> | undefined;
  /** Pending deliveries per receiver, each counted once (an index seek) and kept until the outbox is written. */
  private readonly pendingCounts = new Map<string, number>();

  constructor(private readonly t: Tables) {}

  /**
   * Deliveries and log entries in one transaction (see PipelinePort.commit). An item's
   * `notificationJson`, when given, is JSON.stringify(delivery.notification), serialized beforehand.
   */
  commitDeliveries(items: readonly CommitDelivery[], now: number, donePending: readonly number[] = []): void {
    // One statement for all of them: a storm's flush retires 8,000 pending rows, one DELETE each took 40 ms.
    const unpend = this.t.prepared('DELETE FROM pending WHERE id IN (SELECT value FROM json_each(?))');
    const insert = this.t.prepared('INSERT INTO outbox (receiver, body, created_at, next_at) VALUES (?, ?, ?, ?)');
    const put = this.t.prepared('INSERT INTO nflog (receiver, group_key, body, at) VALUES (?, ?, ?, ?) ON CONFLICT (receiver, group_key) DO UPDATE SET body = excluded.body, at = excluded.at');
    const drop = this.t.prepared('DELETE FROM nflog WHERE receiver = ? AND group_key = ?');
    const committed: [number, Committed][] = [];
    this.written();
    this.t.transaction(() => {
      for (const i of items) {
        if (i.delivery !== undefined) {
          const json = i.notificationJson ?? JSON.stringify(i.delivery.notification);
          const id = Number(insert.run(i.receiver, deliveryRow(json, i.delivery.idempotencyKey), now, now).lastInsertRowid);
          committed.push([id, { delivery: i.delivery, json }]);
        }
        if (i.entry === undefined) drop.run(i.receiver, i.groupKey);
        else put.run(i.receiver, i.groupKey, JSON.stringify(i.entry), i.entry.at);
      }
      if (donePending.length > 0) unpend.run(JSON.stringify(donePending));
    });
    for (const [id, c] of committed) this.remember(id, c);
  }

  /** Keeps a committed delivery at hand for its sender, within COMMITTED_CHARS (the oldest go first). */
  private remember(id: number, c: Committed): void {
    this.committed.set(id, c);
    this.committedChars += c.json.length;
    for (const [old, o] of this.committed) {
      if (this.committedChars <= COMMITTED_CHARS) break;
      this.committed.delete(old);
      this.committedChars -= o.json.length;
    }
  }

  /** The outbox was (or is about to be) written: what is counted of it is counted again. */
  private written(): void {
    this.pendingCounts.clear();
    this.deadCounts = undefined;
  }

  private forget(id: number): void {
    const c = this.committed.get(id);
    if (c === undefined) return;
    this.committed.delete(id);
    this.committedChars -= c.json.length;
  }

  /**
   * Alerts handed to the delivery pipeline, kept until their groups are committed to the
   * outbox (commitDeliveries removes them): a crash while they wait in group_wait loses nothing.
   * Returns their ids, in order.
   */
  addPending(alerts: readonly Alert[]): number[] {
    const insert = this.t.prepared('INSERT INTO pending (body) VALUES (?)');
    return this.t.transaction(() => alerts.map((a) => Number(insert.run(JSON.stringify(storedAlert(a))).lastInsertRowid)));
  }

  loadPending(): { id: number; alert: Alert }[] {
    const rows = this.t.prepared('SELECT rowid AS rowid, id, body FROM pending ORDER BY id').all() as { rowid: number; id: number; body: string }[];
    return this.t.readable('pending', rows, (r) => {
      const alert = parseRow(ROW_SCHEMAS.alert, r.body);
      return alert === undefined ? undefined : { id: r.id, alert };
    });
  }

  logEntry(receiver: string, groupKey: string): LogEntry | undefined {
    const row = this.t.prepared('SELECT rowid AS rowid, body FROM nflog WHERE receiver = ? AND group_key = ?').get(receiver, groupKey) as { rowid: number; body: string } | undefined;
    return row === undefined ? undefined : this.t.readable('nflog', [row], (r) => parseRow(ROW_SCHEMAS.logEntry, r.body))[0];
  }

  /**
   * The oldest pending deliveries of a receiver, in order, as long as they are due: a receiver
   * is told in the order things happened, so one waiting for a retry holds back the rest.
   */
  dueDeliveries(receiver: string, now: number, limit: number): OutboxItem[] {
    const rows = this.t
      .prepared("SELECT rowid AS rowid, id, receiver, created_at, attempts, next_at FROM outbox WHERE receiver = ? AND state = 'pending' ORDER BY id LIMIT ?")
      .all(receiver, limit) as { rowid: number; id: number; receiver: string; created_at: number; attempts: number; next_at: number }[];
    const due = [];
    for (const r of rows) {
      if (r.next_at > now) break;
      due.push(r);
    }
    const body = this.t.prepared('SELECT body FROM outbox WHERE id = ?');
    return this.t.readable('outbox', due, (r) => {
      const item = { id: r.id, receiver: r.receiver, createdAt: r.created_at, attempts: r.attempts, nextAt: r.next_at };
      // Committed by this process: not read back and parsed (a storm's is 3 MB), and its JSON is at hand.
      const c = this.committed.get(r.id);
      if (c !== undefined) return { ...item, delivery: c.delivery, notificationJson: c.json };
      const delivery = parseRow(ROW_SCHEMAS.delivery, bodyText((body.get(r.id) as { body: unknown } | undefined)?.body));
      return delivery === undefined ? undefined : { ...item, delivery };
    });
  }

  /** When the oldest pending delivery of a receiver is due, if any. */
  nextDeliveryAt(receiver: string): number | undefined {
    const row = this.t.prepared("SELECT next_at FROM outbox WHERE receiver = ? AND state = 'pending' ORDER BY id LIMIT 1").get(receiver) as { next_at: number } | undefined;
    return row?.next_at;
  }

  /** Pending deliveries of a receiver (no query unless the outbox was written since the last count: read after every poll). */
  pendingDeliveries(receiver: string): number {
    let n = this.pendingCounts.get(receiver);
    if (n === undefined) {
      n = (this.t.prepared("SELECT COUNT(*) AS n FROM outbox WHERE receiver = ? AND state = 'pending'").get(receiver) as { n: number }).n;
      this.pendingCounts.set(receiver, n);
    }
    return n;
  }

  deliveryDone(id: number, now: number): void {
    this.forget(id);
    this.written();
    this.t.prepared("UPDATE outbox SET state = 'done', finished_at = ?, body = '{}' WHERE id = ?").run(now, id);
  }

  deliveryRetry(id: number, attempts: number, nextAt: number, error: string): void {
    this.t.prepared('UPDATE outbox SET attempts = ?, next_at = ?, last_error = ? WHERE id = ?').run(attempts, nextAt, error, id);
  }

  deliveryDead(id: number, attempts: number, error: string, now: number): void {
    this.forget(id);
    this.written();
    this.t.prepared("UPDATE outbox SET state = 'dead', attempts = ?, last_error = ?, finished_at = ? WHERE id = ?").run(attempts, error, now, id);
  }

  /** Dead letters, newest first; `before` (an id) gives the next page. */
  deadLetters(limit: number, before?: number): DeadLetter[] {
    const rows = this.t
      .prepared("SELECT rowid AS rowid, id, receiver, body, created_at, attempts, last_error, finished_at FROM outbox WHERE state = 'dead' AND id < ? ORDER BY id DESC LIMIT ?")
      .all(before ?? Number.MAX_SAFE_INTEGER, limit) as { rowid: number; id: number; receiver: string; body: unknown; created_at: number; attempts: number; last_error: string | null; finished_at: number | null }[];
    return this.t.readable('outbox', rows, (r) => {
      const delivery = parseRow(ROW_SCHEMAS.delivery, bodyText(r.body));
      return delivery === undefined ? undefined : { id: r.id, receiver: r.receiver, delivery, createdAt: r.created_at, attempts: r.attempts, error: r.last_error ?? '', finishedAt: r.finished_at ?? r.created_at };
    });
  }

  /** How many dead letters each receiver has (no query unless a delivery died since the last count). */
  deadLetterCounts(): ReadonlyMap<string, number> {
    if (this.deadCounts !== undefined) return this.deadCounts;
    const rows = this.t.prepared("SELECT receiver, COUNT(*) AS n FROM outbox WHERE state = 'dead' GROUP BY receiver").all() as { receiver: string; n: number }[];
    this.deadCounts = new Map(rows.map((r) => [r.receiver, r.n]));
    return this.deadCounts;
  }

  /**
   * Writes back, in one transaction and in order, what was held in memory while the store
   * failed: deliveries (returning their new ids, in order), log entries, pending rows done
   * with, and what became of deliveries already in the outbox.
   */
  writeHeld(held: HeldWrites): number[] {
    const insert = this.t.prepared('INSERT INTO outbox (receiver, body, created_at, attempts, next_at, state, last_error, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const put = this.t.prepared('INSERT INTO nflog (receiver, group_key, body, at) VALUES (?, ?, ?, ?) ON CONFLICT (receiver, group_key) DO UPDATE SET body = excluded.body, at = excluded.at');
    const drop = this.t.prepared('DELETE FROM nflog WHERE receiver = ? AND group_key = ?');
    const unpend = this.t.prepared('DELETE FROM pending WHERE id = ?');
    // Held deliveries may come back dead; counted again at the next read, whatever the outcome.
    this.written();
    return this.t.transaction(() => {
      for (const m of held.marks) {
        if (m.state === 'done') this.deliveryDone(m.id, m.at);
        else if (m.state === 'retry') this.deliveryRetry(m.id, m.attempts, m.nextAt, m.error);
        else this.deliveryDead(m.id, m.attempts, m.error, m.at);
      }
      for (const l of held.log) {
        if (l.entry === undefined) drop.run(l.receiver, l.groupKey);
        else put.run(l.receiver, l.groupKey, JSON.stringify(l.entry), l.entry.at);
      }
      for (const id of held.unpend) unpend.run(id);
      return held.deliveries.map((d) => Number(insert.run(d.receiver, JSON.stringify(d.delivery), d.createdAt, d.attempts, d.nextAt, d.state, d.error, d.finishedAt).lastInsertRowid));
    });
  }

  /** Forgets finished deliveries and stale log entries older than `cutoff`. */
  pruneDeliveries(cutoff: number): void {
    this.t.prepared("DELETE FROM outbox WHERE state = 'done' AND finished_at < ?").run(cutoff);
    this.t.prepared('DELETE FROM nflog WHERE at < ?').run(cutoff);
  }
}
