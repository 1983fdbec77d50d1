import type { LogEntry } from '../alerts/dedup';
import type { Logger } from '../lib/logger';
import type { Delivery } from './notifier';
import type { DeliveryStore, HeldDelivery, OutboxItem, OutboxMark } from './outbox-port';
import { errorMessage } from '../lib/error-message';

/** Notifications held in memory at most while the store cannot be written. */
export const HELD_LIMIT = 10_000;

export interface HeldOutboxOptions {
  store: DeliveryStore;
  logger: Logger;
  /** Every write to the store that failed (one call per failed write). */
  onWriteError: (err: unknown) => void;
  /** A held notification dropped because the hold was full (the oldest goes first). */
  onDropped: (receiver: string, delivery: Delivery) => void;
  limit?: number;
}

type Held = HeldDelivery & { id: number };

/**
 * The outbox as the pipeline and the senders see it: the store's, and, while the store
 * cannot be written (a full disk), a hold in memory. A notification that cannot be committed
 * is held and delivered all the same, after what the store's outbox already had for that
 * receiver (order is kept); what becomes of deliveries (done, retry, dead) is held the same
 * way; and all of it is written back in one transaction by `retry`, once the store takes
 * writes again. Held deliveries have negative ids. The hold is bounded (HELD_LIMIT): past it
 * the oldest held notification is dropped, logged and counted, never silently.
 */
export class HeldOutbox {
  private held: Held[] = [];
  private nextId = -1;
  private readonly log = new Map<string, { receiver: string; groupKey: string; entry: LogEntry | undefined }>();
  private unpend: number[] = [];
  /** What became of deliveries of the store's outbox, not yet written; with their receiver. */
  private readonly marks = new Map<number, OutboxMark & { receiver: string }>();
  /** Receivers of the store's deliveries handed to a sender (a mark needs it). */
  private readonly handed = new Map<number, string>();
  /** Held ids written back, and their ids in the store (a sender may still be sending one). */
  private readonly moved = new Map<number, number>();
  private failing = false;

  constructor(private readonly options: HeldOutboxOptions) {}

  /** Whether anything waits in memory to be written. */
  get holding(): boolean {
    return this.held.length > 0 || this.log.size > 0 || this.unpend.length > 0 || this.marks.size > 0;
  }

  // --- The pipeline's side ------------------------------------------------------------------

  logEntry(receiver: string, groupKey: string): LogEntry | undefined {
    const held = this.log.get(`${receiver}\u0000${groupKey}`);
    if (held !== undefined) return held.entry;
    return this.options.store.logEntry(receiver, groupKey);
  }

  /** Deliveries and log entries: into the store, or, when it fails (or holds already: order), into the hold. */
  commit(items: readonly { receiver: string; groupKey: string; delivery: Delivery | undefined; entry: LogEntry | undefined }[], donePending: readonly number[], now: number): void {
    if (!this.holding) {
      try {
        this.options.store.commitDeliveries(items, now, donePending);
        return;
      } catch (err) {
        this.failed(err);
      }
    }
    for (const i of items) {
      if (i.delivery !== undefined) this.hold({ receiver: i.receiver, delivery: i.delivery, createdAt: now, attempts: 0, nextAt: now, state: 'pending', error: null, finishedAt: null });
      this.log.set(`${i.receiver}\u0000${i.groupKey}`, { receiver: i.receiver, groupKey: i.groupKey, entry: i.entry });
    }
    this.unpend.push(...donePending);
  }

  /** Writes back everything held, in one transaction; true when nothing is held any more. */
  retry(): boolean {
    if (!this.holding) return true;
    const deliveries = this.held;
    try {
      const ids = this.options.store.writeHeld({ deliveries, log: [...this.log.values()], unpend: this.unpend, marks: [...this.marks.values()] });
      deliveries.forEach((d, i) => this.moved.set(d.id, ids[i] as number));
      while (this.moved.size > (this.options.limit ?? HELD_LIMIT)) this.moved.delete(this.moved.keys().next().value as number);
    } catch (err) {
      this.failed(err);
      return false;
    }
    this.options.logger.info({ notifications: deliveries.length, logEntries: this.log.size, outboxUpdates: this.marks.size }, 'outbox writable again; what was held in memory is written');
    this.held = [];
    this.log.clear();
    this.unpend = [];
    this.marks.clear();
    this.failing = false;
    return true;
  }

  // --- The senders' side (OutboxPort) -------------------------------------------------------

  /** The last look's reads of the store failed (what it holds is unknown): the retry stage looks again soon. */
  get readFailing(): boolean {
    return this.unreadable;
  }

  private unreadable = false;

  dueDeliveries(receiver: string, now: number, limit: number): OutboxItem[] {
    this.unreadable = false;
    if (this.marks.size === 0) return this.dueWithoutMarks(receiver, now, limit);
    const out: OutboxItem[] = [];
    const want = limit + this.marks.size;
    let rows: OutboxItem[] = [];
    try {
      rows = this.options.store.dueDeliveries(receiver, Number.MAX_SAFE_INTEGER, want);
    } catch (err) {
      this.unreadable = true;
      this.options.logger.error({ err, receiver }, 'cannot read the outbox');
    }
    for (const r of rows) {
      const mark = this.marks.get(r.id);
      if (mark !== undefined && mark.state !== 'retry') continue;
      const nextAt = mark?.nextAt ?? r.nextAt ?? 0;
      // In order: one waiting for a retry holds back the rest, held ones included.
      if (nextAt > now) return out;
      this.handed.set(r.id, receiver);
      out.push(mark === undefined ? r : { ...r, attempts: mark.attempts });
      if (out.length === limit) return out;
    }
    if (rows.length === want) return out;
    return this.withHeld(out, receiver, now, limit);
  }

  nextDeliveryAt(receiver: string): number | undefined {
    try {
      if (this.marks.size === 0) return this.options.store.nextDeliveryAt(receiver) ?? this.firstHeld(receiver)?.nextAt;
      for (const r of this.options.store.dueDeliveries(receiver, Number.MAX_SAFE_INTEGER, 1 + this.marks.size)) {
        const mark = this.marks.get(r.id);
        if (mark !== undefined && mark.state !== 'retry') continue;
        return mark?.nextAt ?? r.nextAt;
      }
    } catch {
      // Reads failing: only what is held is known.
      this.unreadable = true;
    }
    return this.firstHeld(receiver)?.nextAt;
  }

  /** Deliveries waiting for a receiver: the store's, as they stand, and the held ones. */
  pendingDeliveries(receiver: string): number {
    let n = 0;
    try {
      n = this.options.store.pendingDeliveries(receiver);
    } catch {
      // Reads failing: count what is held.
    }
    for (const m of this.marks.values()) if (m.receiver === receiver && m.state !== 'retry') n--;
    for (const h of this.held) if (h.receiver === receiver && h.state === 'pending') n++;
    return n;
  }

  deliveryDone(id: number, now: number): void {
    this.update(id, { state: 'done', attempts: 0, nextAt: now, error: '', at: now }, (h) => {
      this.held = this.held.filter((x) => x !== h);
    });
  }

  deliveryRetry(id: number, attempts: number, nextAt: number, error: string): void {
    this.update(id, { state: 'retry', attempts, nextAt, error, at: nextAt }, (h) => Object.assign(h, { attempts, nextAt, error }));
  }

  deliveryDead(id: number, attempts: number, error: string, now: number): void {
    this.update(id, { state: 'dead', attempts, nextAt: now, error, at: now }, (h) => Object.assign(h, { state: 'dead', attempts, error, finishedAt: now }));
  }

  // ------------------------------------------------------------------------------------------

  /** The usual case: the store's own due deliveries (read as they always are), then the held ones once none is left there. */
  private dueWithoutMarks(receiver: string, now: number, limit: number): OutboxItem[] {
    const { store } = this.options;
    let rows: OutboxItem[];
    try {
      rows = store.dueDeliveries(receiver, now, limit);
      for (const r of rows) this.handed.set(r.id, receiver);
      if (rows.length === limit || this.held.length === 0 || store.pendingDeliveries(receiver) > rows.length) return rows;
    } catch (err) {
      this.unreadable = true;
      this.options.logger.error({ err, receiver }, 'cannot read the outbox');
      rows = [];
    }
    return this.withHeld(rows, receiver, now, limit);
  }

  /** `out` followed by the receiver's held deliveries that are due, in order, up to `limit` in all. */
  private withHeld(out: OutboxItem[], receiver: string, now: number, limit: number): OutboxItem[] {
    for (const h of this.held) {
      if (h.receiver !== receiver || h.state !== 'pending') continue;
      if (h.nextAt > now || out.length === limit) break;
      out.push({ id: h.id, receiver, delivery: h.delivery, createdAt: h.createdAt, attempts: h.attempts });
    }
    return out;
  }

  private firstHeld(receiver: string): Held | undefined {
    return this.held.find((h) => h.receiver === receiver && h.state === 'pending');
  }

  private update(id: number, mark: Omit<OutboxMark, 'id'>, inMemory: (h: Held) => void): void {
    const h = id < 0 ? this.held.find((x) => x.id === id) : undefined;
    if (h !== undefined) return inMemory(h);
    const stored = id < 0 ? this.moved.get(id) : id;
    if (stored === undefined) return; // dropped from the hold meanwhile
    const { store } = this.options;
    // An earlier update of this delivery is held: this one waits behind it (order).
    if (!this.marks.has(stored)) {
      try {
        if (mark.state === 'done') store.deliveryDone(stored, mark.at);
        else if (mark.state === 'retry') store.deliveryRetry(stored, mark.attempts, mark.nextAt, mark.error);
        else store.deliveryDead(stored, mark.attempts, mark.error, mark.at);
        this.handed.delete(stored);
        return;
      } catch (err) {
        this.failed(err);
      }
    }
    this.marks.set(stored, { id: stored, receiver: this.handed.get(stored) ?? '', ...mark });
  }

  private hold(d: HeldDelivery): void {
    this.held.push({ ...d, id: this.nextId-- });
    const limit = this.options.limit ?? HELD_LIMIT;
    while (this.held.length > limit) {
      const dropped = this.held.shift() as Held;
      this.options.logger.error({ receiver: dropped.receiver, groupKey: dropped.delivery.notification.groupKey, held: limit }, 'notification dropped: the store cannot be written and the in-memory hold is full');
      this.options.onDropped(dropped.receiver, dropped.delivery);
    }
  }

  private failed(err: unknown): void {
    this.options.onWriteError(err);
    if (!this.failing) this.options.logger.error({ error: errorMessage(err) }, 'cannot write the outbox; notifications are held in memory, delivered, and written once the store takes writes');
    this.failing = true;
  }
}
