import type { Alert } from '../alerts/alert';
import type { LogEntry } from '../alerts/dedup';
import type { Silence } from '../alerts/silence';
import type { Delivery } from './notifier';
import type { OutboxPort } from './pipeline/retry-stage';

/** A delivery held in memory while the store could not be written, written back when it can. */
export interface HeldDelivery {
  receiver: string;
  delivery: Delivery;
  createdAt: number;
  attempts: number;
  nextAt: number;
  state: 'pending' | 'dead';
  error: string | null;
  finishedAt: number | null;
}

/** What became of a delivery of the outbox while the store could not be written. */
export interface OutboxMark {
  id: number;
  state: 'done' | 'retry' | 'dead';
  attempts: number;
  nextAt: number;
  error: string;
  at: number;
}

/** Everything a failing store could not take at once: written back in one transaction. */
export interface HeldWrites {
  deliveries: readonly HeldDelivery[];
  log: readonly { receiver: string; groupKey: string; entry: LogEntry | undefined }[];
  unpend: readonly number[];
  marks: readonly OutboxMark[];
}

/** A delivery and log entry to commit (see StateStore.commitDeliveries). */
export interface CommitDelivery {
  receiver: string;
  groupKey: string;
  delivery: Delivery | undefined;
  entry: LogEntry | undefined;
  notificationJson?: string;
}

/** A delivery waiting in (or finished with) the outbox. */
export interface OutboxItem {
  id: number;
  receiver: string;
  delivery: Delivery;
  /** JSON.stringify(delivery.notification), when the outbox has it at hand. */
  notificationJson?: string;
  createdAt: number;
  attempts: number;
  /** When it is due (the outbox's own reads give it). */
  nextAt?: number;
}

export interface DeadLetter extends OutboxItem {
  error: string;
  finishedAt: number;
}

/**
 * What the delivery needs of the store (the store port, storage/port.ts, includes it; SQLite's
 * StateStore implements it): the pending alerts handed over, the outbox and its log, what was
 * held in memory written back, and the stored silences. notify/ names it here so it never
 * imports a store.
 */
export interface DeliveryStore extends OutboxPort {
  /** Deliveries and log entries in one transaction, and pending alerts done with (see PipelinePort.commit). */
  commitDeliveries(items: readonly CommitDelivery[], now: number, donePending?: readonly number[]): void;
  loadPending(): { id: number; alert: Alert }[];
  logEntry(receiver: string, groupKey: string): LogEntry | undefined;
  /** The oldest pending deliveries of a receiver, in order, as long as they are due. */
  dueDeliveries(receiver: string, now: number, limit: number): OutboxItem[];
  /** Writes back, in one transaction and in order, what was held in memory while the store failed; the new ids of its deliveries. */
  writeHeld(held: HeldWrites): number[];
  loadSilences(): Silence[];
}
