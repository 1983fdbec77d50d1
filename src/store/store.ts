import type Database from 'better-sqlite3';
import type { Alert } from '../alerts/alert';
import type { LogEntry } from '../alerts/dedup';
import type { Silence } from '../alerts/silence';
import type { NoticeBook } from '../notices/book';
import type { SymbolHistory } from '../rules/ticker-samples';
import type { Change } from '../snapshot/changes';
import type { CoinRecord, Snapshot } from '../snapshot/model';
import { WalCheckpoints } from './checkpoint';
import type { ChangeQuery, Store, StoredChange } from '../storage/port';
import type { Outage, OutageQuery, OutageSpan, OutageTotals, TotalsQuery } from '../outages/model';
import { ChangeHistory } from './change-history';
import { openChecked, openStore } from './open';
import { COMPANIONS, identify, recreateFile, sameFile, type FileIdentity } from './recreate';
import { OutageIndex } from '../outages/availability';
import { outageRowSource } from './outage-totals';
import { OutageRows } from './outages';
import type { CommitDelivery, DeadLetter, HeldWrites, OutboxItem } from '../notify/outbox-port';
import { Outbox } from './outbox';
import { SilenceRows } from './silences';
import { StateRows } from './state';
import { Tables, type SetAsideHook } from './tables';

export type { SetAsideHook } from './tables';
export { StoreError } from './open';
export { snapshotRecords } from './state';


/**
 * The daemon's state on disk, SQLite's backend of the store port (storage/port.ts): the last snapshot
 * of each exchange, the active alerts and the ticker samples the windows need (state.ts), the
 * history of changes (change-history.ts), the notification outbox, its log and the alerts
 * waiting to be grouped (outbox.ts), and the silences (silences.ts). The parts share one SQLite
 * connection in WAL mode (opened, checked and migrated by open.ts) and this transaction().
 *
 * Contract:
 * - Every method is synchronous. `transaction(fn)` is all-or-nothing: every write made in `fn`
 *   lands, or none does. A write the store refuses (a full disk, a read-only file, a lock held
 *   past 5 s) throws, and the store is then as before the transaction. commitDeliveries,
 *   addPending and writeHeld are one transaction each; the other writes of more than one row
 *   (saveAlerts, updateAlerts, appendChanges, pruneDeliveries) are all-or-nothing only inside
 *   transaction().
 * - Every row is validated as it is read back (storage/rows.ts). A row that is not what was written (a
 *   few overwritten bytes pass quick_check) is never returned: it is set aside into the table
 *   `set_aside`, kept for a look, and `onSetAside` hears of it once per open or read, never once
 *   per row (a store that cannot be written leaves it in place, and reads skip it). The state
 *   is swept once at open, the change history as it is read; damage wider than a few rows at
 *   open (open.ts: WIDE_DAMAGE_ROWS) counts as a corrupt file.
 * - A file that cannot be read as a database, or damaged that widely, is moved aside (never
 *   silently dropped), `onProblem` is told where, and a fresh one is made; a state_dir that
 *   cannot be used is a StoreError.
 * - A restart (a close, a crash, kill -9) keeps every committed write: snapshots, alerts,
 *   ticker samples, changes, pending alerts, the outbox and what became of each delivery, the
 *   notification log, silences. Only the committed notifications kept at hand for the senders
 *   live in memory: after a restart they are read from their rows. A checkpoint cut short loses
 *   nothing (the WAL is the committed state).
 * - The file deleted while open goes on being read and written by SQLite, unseen, and lost at the
 *   next start: `fileState()` says so (`gone`), `recreate()` writes what the connection reads to a
 *   new file at the path and fences the deleted one (every write to it then throws), and the
 *   other connections, finding `replaced`, `reopen()` on it (recreate.ts).
 */
export class StateStore implements Store {
  // The connection and the parts over it: made again when the store moves to a new file (reopen).
  private db!: Database.Database;
  private state!: StateRows;
  private history!: ChangeHistory;
  private outages!: OutageRows;
  private outageIndex!: OutageIndex;
  private outbox!: Outbox;
  private silences!: SilenceRows;
  /** The file this connection opened (its path may name another by now: fileState). */
  private identity: FileIdentity | undefined;
  /** Its WAL and the WAL's index as this connection opened them (COMPANIONS' order). */
  private companions: (FileIdentity | undefined)[] = [];

  /** When the WAL is folded into the database file (checkpoint.ts). */
  private checkpoints!: WalCheckpoints;

  private constructor(
    db: Database.Database,
    private readonly onSetAside?: SetAsideHook,
    /** Rows found unreadable at open: set aside once the store is made. */
    unreadable: ReadonlyMap<string, readonly number[]> = new Map(),
  ) {
    this.attach(db).setAside(unreadable);
  }

  private attach(db: Database.Database): Tables {
    this.db = db;
    this.identity = identify(db.name);
    this.companions = COMPANIONS.map((ext) => identify(`${db.name}${ext}`));
    this.checkpoints = new WalCheckpoints(db);
    const tables = new Tables(db, <T>(fn: () => T): T => this.transaction(fn), this.onSetAside);
    this.state = new StateRows(tables);
    this.history = new ChangeHistory(tables);
    this.outageIndex = new OutageIndex(outageRowSource(db));
    this.outages = new OutageRows(db, { touched: (exchange, coin) => this.outageIndex.touched(exchange, coin) });
    this.outbox = new Outbox(tables);
    this.silences = new SilenceRows(tables);
    return tables;
  }

  static open(dir: string, onProblem: (message: string, movedTo: string) => void = () => undefined, onSetAside?: SetAsideHook): StateStore {
    return openStore(dir, onProblem, (db, unreadable) => new StateStore(db, onSetAside, unreadable));
  }

  close(): void {
    this.checkpoints.stop();
    if (this.db.open) this.db.close();
  }

  // --- The file under the store ----------------------------------------------------------------

  /** The path of the store's file. */
  get file(): string {
    return this.db.name;
  }

  /**
   * Whether the store's path still names the file this connection reads and writes: `kept`;
   * `gone` (deleted while open: SQLite goes on with the deleted file, which nothing will read
   * again); `replaced` (another file there now: recreated through another connection);
   * `wal-gone` (the file kept, but its `-wal` or `-shm` deleted or replaced: the connections go
   * on with the deleted ones, and a new connection or a restart would not see the writes since
   * the last checkpoint, or would fail reading them: SQLITE_IOERR_SHORT_READ).
   */
  fileState(): 'kept' | 'gone' | 'replaced' | 'wal-gone' {
    const now = identify(this.db.name);
    if (now === undefined) return 'gone';
    if (!sameFile(now, this.identity)) return 'replaced';
    const moved = COMPANIONS.some((ext, i) => this.companions[i] !== undefined && !sameFile(identify(`${this.db.name}${ext}`), this.companions[i]));
    return moved ? 'wal-gone' : 'kept';
  }

  /**
   * The file is gone (or its WAL: `wal-gone`): writes everything this connection reads (the deleted file, with what every
   * connection committed to it) to a new file at the path, fences the deleted one (recreate.ts),
   * and moves to the new one. The rows written; undefined when a file appeared at the path
   * meanwhile (then this only moves to it). Throws when the new file cannot be written.
   */
  recreate(): number | undefined {
    const rows = recreateFile(this.db, this.identity);
    this.reopen();
    return rows;
  }

  /** Moves to the file now at the store's path (recreated through another connection). */
  reopen(): void {
    if (this.fileState() === 'gone') throw new Error(`no file at ${this.db.name} to move to`);
    const db = openChecked(this.db.name, false);
    this.checkpoints.stop();
    this.db.close();
    this.attach(db);
  }

  /** WAL checkpoints started so far (see checkpoint.ts). */
  get checkpointsStarted(): number {
    return this.checkpoints.started;
  }

  /** Runs `fn` in one transaction: all of its writes land, or none. */
  transaction<T>(fn: () => T): T {
    const out = this.db.transaction(fn)();
    this.checkpoints.soon();
    return out;
  }

  // --- State: snapshots, alerts, ticker samples (state.ts) -------------------------------------

  loadSnapshot(exchange: string): Snapshot | undefined {
    return this.state.loadSnapshot(exchange);
  }

  /** One part of a snapshot, whole; `bodies`, when given, are its records (snapshotRecords) as JSON. */
  saveSnapshot(snapshot: Snapshot, part: 'coins' | 'tickers', bodies?: readonly string[]): void {
    this.state.saveSnapshot(snapshot, part, bodies);
    if (part === 'coins') this.outages.noteSnapshot(snapshot);
  }

  /** The coins part of `snapshot`, written whole before, brought up to it: `changed` coins written, `gone` ones deleted. */
  saveCoinsDelta(snapshot: Snapshot, changed: readonly CoinRecord[], gone: readonly string[], bodies?: readonly string[]): void {
    this.state.saveCoinsDelta(snapshot, changed, gone, bodies);
    this.outages.noteSnapshot(snapshot);
  }

  loadAlerts(): Map<string, Alert> {
    return this.state.loadAlerts();
  }

  /** Replaces the stored active alerts of one exchange. */
  saveAlerts(exchange: string, alerts: Iterable<Alert>): void {
    this.state.saveAlerts(exchange, alerts);
  }

  /** Writes some of one exchange's active alerts and deletes others by fingerprint, leaving the rest. */
  updateAlerts(exchange: string, alerts: Iterable<Alert>, gone: Iterable<string>): void {
    this.state.updateAlerts(exchange, alerts, gone);
  }

  /** Writes alerts (each under its `exchange` label) and deletes others by fingerprint, leaving the rest. */
  writeAlerts(alerts: Iterable<Alert>, gone: Iterable<string>): void {
    this.state.writeAlerts(alerts, gone);
  }

  loadHistory(exchange: string): Map<string, SymbolHistory> | undefined {
    return this.state.loadHistory(exchange);
  }

  saveHistory(exchange: string, symbols: ReadonlyMap<string, SymbolHistory>): void {
    this.state.saveHistory(exchange, symbols);
  }

  loadNotices(exchange: string): NoticeBook | undefined {
    return this.state.loadNotices(exchange);
  }

  saveNotices(exchange: string, book: NoticeBook): void {
    this.state.saveNotices(exchange, book);
  }

  // --- The change history (change-history.ts) --------------------------------------------------

  /** Appends changes, and the outages they open or end, in one transaction. */
  appendChanges(changes: readonly Change[]): void {
    this.transaction(() => {
      this.history.appendChanges(changes);
      this.outages.applyChanges(changes);
    });
  }

  /** Changes, newest first. */
  queryChanges(q: ChangeQuery): StoredChange[] {
    return this.history.queryChanges(q);
  }

  /** When each network of an exchange last closed, per direction, within the kept history. */
  closedSince(exchange: string): { coin: string; network: string; kind: string; at: number }[] {
    return this.history.closedSince(exchange);
  }

  /** How many changes are kept, counted up to `atMost`. */
  countChanges(atMost: number): number {
    return this.history.countChanges(atMost);
  }

  /**
   * Deletes changes older than `cutoff` (ms since epoch), and outages that reopened before it;
   * returns how many changes. An outage still going keeps its start.
   */
  pruneChanges(cutoff: number): number {
    return this.transaction(() => {
      this.outages.prune(cutoff);
      return this.history.pruneChanges(cutoff);
    });
  }

  // --- Outages (outages.ts) --------------------------------------------------------------------

  /**
   * Outages were written through another connection (the engine's): of one coin, of one
   * exchange, or any. The availability index reads those back before its next answer.
   */
  outagesTouched(exchange?: string, coin?: string): void {
    this.outageIndex.touched(exchange, coin);
  }

  /** Outages, newest first. */
  queryOutages(q: OutageQuery): Outage[] {
    return this.outages.queryOutages(q);
  }

  /** Loads the outage index ahead of its first use (at start, so the first status page after a restart does not wait for it). */
  warmOutageIndex(now: number): void {
    this.outageIndex.warm(now);
  }

  /** Closed time and outages per network and direction within [start, now] (see totalsBySql), from an index in memory. */
  outageTotals(q: TotalsQuery): OutageTotals[] {
    return this.outageIndex.totals(q);
  }

  /** The outages of one network that lasted into [start, now], oldest first, from the index in memory. */
  networkOutages(exchange: string, coin: string, network: string, start: number, now: number): OutageSpan[] {
    return this.outageIndex.spans(exchange, coin, network, start, now);
  }

  /** When watching each exchange began (ms since epoch). */
  watchingSince(): Map<string, number> {
    return this.outages.watching();
  }

  // --- Delivery: pending alerts, the outbox and the notification log (outbox.ts) ---------------

  /** Deliveries and log entries in one transaction, and pending alerts done with (see PipelinePort.commit). */
  commitDeliveries(items: readonly CommitDelivery[], now: number, donePending?: readonly number[]): void {
    this.outbox.commitDeliveries(items, now, donePending);
  }

  /** Alerts handed to the delivery pipeline, kept until commitDeliveries retires them; their ids, in order. */
  addPending(alerts: readonly Alert[]): number[] {
    return this.outbox.addPending(alerts);
  }

  loadPending(): { id: number; alert: Alert }[] {
    return this.outbox.loadPending();
  }

  logEntry(receiver: string, groupKey: string): LogEntry | undefined {
    return this.outbox.logEntry(receiver, groupKey);
  }

  /** The oldest pending deliveries of a receiver, in order, as long as they are due. */
  dueDeliveries(receiver: string, now: number, limit: number): OutboxItem[] {
    return this.outbox.dueDeliveries(receiver, now, limit);
  }

  /** When the oldest pending delivery of a receiver is due, if any. */
  nextDeliveryAt(receiver: string): number | undefined {
    return this.outbox.nextDeliveryAt(receiver);
  }

  pendingDeliveries(receiver: string): number {
    return this.outbox.pendingDeliveries(receiver);
  }

  deliveryDone(id: number, now: number): void {
    this.outbox.deliveryDone(id, now);
  }

  deliveryRetry(id: number, attempts: number, nextAt: number, error: string): void {
    this.outbox.deliveryRetry(id, attempts, nextAt, error);
  }

  deliveryDead(id: number, attempts: number, error: string, now: number): void {
    this.outbox.deliveryDead(id, attempts, error, now);
  }

  /** Dead letters, newest first; `before` (an id) gives the next page. */
  deadLetters(limit: number, before?: number): DeadLetter[] {
    return this.outbox.deadLetters(limit, before);
  }

  /** How many dead letters each receiver has. */
  deadLetterCounts(): ReadonlyMap<string, number> {
    return this.outbox.deadLetterCounts();
  }

  /** Writes back, in one transaction and in order, what was held in memory while the store failed; the new ids of its deliveries. */
  writeHeld(held: HeldWrites): number[] {
    return this.outbox.writeHeld(held);
  }

  /** Forgets finished deliveries and stale log entries older than `cutoff`. */
  pruneDeliveries(cutoff: number): void {
    this.outbox.pruneDeliveries(cutoff);
  }

  // --- Silences (silences.ts) ------------------------------------------------------------------

  saveSilence(silence: Silence): void {
    this.silences.saveSilence(silence);
  }

  /** Deletes silences that ended at or before `cutoff`; returns how many. */
  pruneSilences(cutoff: number): number {
    return this.silences.pruneSilences(cutoff);
  }

  loadSilences(): Silence[] {
    return this.silences.loadSilences();
  }
}
