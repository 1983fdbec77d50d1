import type { Alert } from '../alerts/alert';
import type { Silence } from '../alerts/silence';
import type { NoticeBook } from '../notices/book';
import type { DeadLetter, DeliveryStore } from '../notify/outbox-port';
import type { Outage, OutageQuery, OutageSpan, OutageTotals, TotalsQuery } from '../outages/model';
import type { SymbolHistory } from '../rules/ticker-samples';
import type { Change } from '../snapshot/changes';
import type { CoinRecord, Snapshot } from '../snapshot/model';

export type { DeadLetter, OutboxItem } from '../notify/outbox-port';

/** Filters of the change history (GET /api/v1/changes). */
export interface ChangeQuery {
  exchange?: string;
  since?: number;
  coin?: string;
  network?: string;
  symbol?: string;
  kind?: string;
  /** Return changes with an id below this (the next page of a newest-first listing). */
  before?: number;
  limit: number;
}

export interface StoredChange extends Change {
  id: number;
}

/**
 * The store port: everything the daemon remembers, and the one interface a backend implements
 * (SQLite's StateStore in store/, the embedded default; PostgreSQL next, for replicas). The rest
 * of the code depends on this, or on the part it needs (DeliveryStore, poll/persist.ts's
 * PollStore); only the composition root opens a backend. The parts: the last snapshot of each
 * exchange, the active alerts, the ticker samples the windows need and the notices; the history
 * of changes and the outages kept beside it; the notification outbox, its log and the alerts
 * waiting to be grouped (DeliveryStore); the silences.
 *
 * Contract (each backend keeps it; store/store.ts says how SQLite does):
 * - Every method is synchronous. `transaction(fn)` is all-or-nothing: every write made in `fn`
 *   lands, or none does. A write the store refuses throws, and the store is then as before the
 *   transaction. commitDeliveries, addPending and writeHeld are one transaction each; the other
 *   writes of more than one row (saveAlerts, updateAlerts, appendChanges, pruneDeliveries) are
 *   all-or-nothing only inside transaction().
 * - A row that is not what was written is never returned.
 * - A restart (a close, a crash, kill -9) keeps every committed write.
 */
export interface Store extends DeliveryStore {
  close(): void;
  /** Runs `fn` in one transaction: all of its writes land, or none. */
  transaction<T>(fn: () => T): T;

  // --- State: snapshots, alerts, ticker samples, notices
  loadSnapshot(exchange: string): Snapshot | undefined;
  /** One part of a snapshot, whole; `bodies`, when given, are its records (snapshotRecords) as JSON. */
  saveSnapshot(snapshot: Snapshot, part: 'coins' | 'tickers', bodies?: readonly string[]): void;
  /** The coins part of `snapshot`, written whole before, brought up to it: `changed` coins written, `gone` ones deleted. */
  saveCoinsDelta(snapshot: Snapshot, changed: readonly CoinRecord[], gone: readonly string[], bodies?: readonly string[]): void;
  loadAlerts(): Map<string, Alert>;
  /** Replaces the stored active alerts of one exchange. */
  saveAlerts(exchange: string, alerts: Iterable<Alert>): void;
  /** Writes some of one exchange's active alerts and deletes others by fingerprint, leaving the rest. */
  updateAlerts(exchange: string, alerts: Iterable<Alert>, gone: Iterable<string>): void;
  /** Writes alerts (each under its `exchange` label) and deletes others by fingerprint, leaving the rest. */
  writeAlerts(alerts: Iterable<Alert>, gone: Iterable<string>): void;
  loadHistory(exchange: string): Map<string, SymbolHistory> | undefined;
  saveHistory(exchange: string, symbols: ReadonlyMap<string, SymbolHistory>): void;
  loadNotices(exchange: string): NoticeBook | undefined;
  saveNotices(exchange: string, book: NoticeBook): void;

  // --- The change history
  /** Appends changes, and the outages they open or end, in one transaction. */
  appendChanges(changes: readonly Change[]): void;
  /** Changes, newest first. */
  queryChanges(q: ChangeQuery): StoredChange[];
  /** When each network of an exchange last closed, per direction, within the kept history. */
  closedSince(exchange: string): { coin: string; network: string; kind: string; at: number }[];
  /** How many changes are kept, counted up to `atMost`. */
  countChanges(atMost: number): number;
  /** Deletes changes older than `cutoff` (ms since epoch), and outages that reopened before it; returns how many changes. An outage still going keeps its start. */
  pruneChanges(cutoff: number): number;

  // --- Outages
  /** Outages were written through another connection: of one coin, of one exchange, or any. */
  outagesTouched(exchange?: string, coin?: string): void;
  /** Outages, newest first. */
  queryOutages(q: OutageQuery): Outage[];
  /** Loads what answers outageTotals and networkOutages ahead of its first use. */
  warmOutageIndex(now: number): void;
  /** Closed time and outages per network and direction within [start, now]. */
  outageTotals(q: TotalsQuery): OutageTotals[];
  /** The outages of one network that lasted into [start, now], oldest first. */
  networkOutages(exchange: string, coin: string, network: string, start: number, now: number): OutageSpan[];
  /** When watching each exchange began (ms since epoch). */
  watchingSince(): Map<string, number>;

  // --- Delivery (beyond DeliveryStore)
  /** Alerts handed to the delivery pipeline, kept until commitDeliveries retires them; their ids, in order. */
  addPending(alerts: readonly Alert[]): number[];
  /** Dead letters, newest first; `before` (an id) gives the next page. */
  deadLetters(limit: number, before?: number): DeadLetter[];
  /** How many dead letters each receiver has. */
  deadLetterCounts(): ReadonlyMap<string, number>;
  /** Forgets finished deliveries and stale log entries older than `cutoff`. */
  pruneDeliveries(cutoff: number): void;

  // --- Silences
  saveSilence(silence: Silence): void;
  /** Deletes silences that ended at or before `cutoff`; returns how many. */
  pruneSilences(cutoff: number): number;
}
