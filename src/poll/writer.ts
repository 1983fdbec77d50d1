import type { Alert } from '../alerts/alert';
import { errorMessage } from '../lib/error-message';
import type { Logger } from '../lib/logger';
import { StepQueue, type Step } from '../lib/step-queue';
import type { SymbolHistory } from '../rules/history';
import type { Change } from '../snapshot/changes';
import type { Snapshot } from '../snapshot/model';
import { snapshotRecords } from '../store/store';
import type { Endpoint } from '../snapshot/model';
import { SavedCoins } from './saved-coins';
import type { PollStore } from './store';

/**
 * The effects of the poll path on the store, in order and in turns: each decision's change
 * rows, snapshot, alerts and ticker samples written, then what it decided handed on. A store
 * that cannot be written (disk full, read-only) is logged once per streak, counted, raises
 * StoreFailing (judged by the engine from each state write's outcome), and does not stop the
 * watcher: notifications still go out, the changes wait in memory (bounded), and writing
 * resumes when the disk does.
 */

/** Change rows written per transaction (one turn of the event loop each). */
const WRITE_CHUNK = 500;
/**
 * Alert rows, and snapshot records serialized, per turn of the event loop ahead of a state
 * write (see poll()): a storm's 8,378 new alerts and 4 MB snapshot written in one step held
 * the loop 150-270 ms.
 */
const STATE_CHUNK = 500;
/** How often an unchanged ticker list is written to the store. */
const TICKERS_SAVE_MS = 60_000;
/** How often the ticker samples are written to the store. */
const HISTORY_SAVE_MS = 60_000;
/**
 * Change rows kept in memory at most while the store cannot be written (about 20 MB); they
 * are written with the next write that succeeds. Past it the oldest are dropped and counted.
 */
export const UNSAVED_CHANGES_LIMIT = 100_000;

export interface WriterOptions {
  store: PollStore;
  logger: Logger;
  /** The engine's active alerts of one exchange now, by fingerprint: what the store must come to hold. */
  alertsOf: (exchange: string) => ReadonlyMap<string, Alert>;
  /** StoreFailing judged for an exchange from a state write's outcome (the error when it failed); returns what must be told. */
  judgeStore: (exchange: string, at: number, error: string | undefined) => Alert[];
  /** Receives what must be told, in decision order, once its state is written. */
  notify: (alerts: Alert[]) => void;
  /** Told of every failed write to the store (metrics). */
  onStoreError?: () => void;
  /** Told of change rows dropped from the history: the store failed past UNSAVED_CHANGES_LIMIT. */
  onHistoryDropped?: (rows: number) => void;
  /** UNSAVED_CHANGES_LIMIT unless given (tests). */
  unsavedChangesLimit?: number;
}

/** An accepted answer, as the writer needs it. */
export interface AcceptedPoll {
  exchange: string;
  endpoint: Endpoint;
  at: number;
  prev: Snapshot;
  next: Snapshot;
  changes: readonly Change[];
  /** The exchange's ticker samples (written once a minute). */
  history: ReadonlyMap<string, SymbolHistory>;
  notify: Alert[];
}


export class StateWriter {
  private failing = false;
  /** Changes of polls whose write failed, oldest first: written with the next write that succeeds. */
  private unsavedChanges: Change[] = [];
  /**
   * Snapshot parts whose write failed, by exchange and part (the latest): written with those
   * changes, whatever poll's write succeeds first, so a restart does not report them again.
   */
  private readonly unsavedSnapshots = new Map<string, { snapshot: Snapshot; part: Endpoint }>();
  /**
   * Writes and notifications decided but not yet done, run in later turns of the event loop,
   * one step per turn and in decision order: a poll that closes 8,000 networks does not hold
   * health checks, scrapes and answers already in behind one long write, and a later
   * decision's state is never written before an earlier one's.
   */
  private readonly steps: StepQueue;
  /** Per exchange, the alerts as the store holds them, by fingerprint (see writeAlerts); none known before the first write. */
  private readonly savedAlerts = new Map<string, Map<string, Alert>>();
  private readonly savedAt = new Map<string, { tickers: number; history: number }>();
  /** Per exchange, the coins as the store holds them: what the next coins write is a delta of. */
  private readonly savedCoins = new SavedCoins();

  constructor(private readonly options: WriterOptions) {
    this.steps = new StepQueue((err) => options.logger.error({ err }, 'internal error while writing or handing on a poll'));
  }

  /**
   * The writes of an accepted answer, then its notifications, in later turns (see StepQueue): a
   * storm's history in chunks before the state that follows it. The alerts written are the
   * engine's as they are when the write runs, never a decision's older copy: a later decision
   * (the other endpoint, StoreFailing resolving) may already have changed them, and writing the
   * older copy would store an alert that already resolved. A write the store refuses keeps its
   * rows and snapshot in memory for the next write (see write()).
   */
  poll(p: AcceptedPoll): void {
    const { exchange, endpoint, at, prev, next, changes, notify } = p;
    const store = this.options.store;
    const saved = this.savedAtOf(exchange);
    // Coins are written when they changed; tickers when a symbol came or went (so a restart
    // does not report it again) and otherwise once a minute (their prices are not state).
    const key = `${exchange}\u0000${endpoint}`;
    const saveSnapshot =
      this.unsavedSnapshots.has(key) ||
      (endpoint === 'coins' ? next.coins !== prev.coins || prev.coinsAt === null : changes.length > 0 || at - saved.tickers >= TICKERS_SAVE_MS);
    if (endpoint === 'tickers' && saveSnapshot) saved.tickers = at;
    const steps: Step[] = [];
    // While the store refuses writes, the rows go with the state write instead (one attempt).
    const deferred: Change[] = [];
    for (let i = 0; i < changes.length; i += WRITE_CHUNK) {
      const part = changes.slice(i, i + WRITE_CHUNK);
      steps.push(() => {
        if (this.failing) deferred.push(...part);
        else if (this.write(() => store.appendChanges(part)) !== undefined) this.keepUnsaved(part);
      });
    }
    // The snapshot serialized and the alerts that changed written ahead, STATE_CHUNK per turn,
    // so the state write itself stays short. A crash before the state write leaves some of the
    // new alerts stored beside the previous snapshot: at restart the firing ones are told (they
    // had not been: notification follows the state write), and the first poll sees the same
    // changes again against that snapshot and decides the rest. Deletions (resolved alerts) only
    // ever land with the snapshot, so no resolution is lost.
    // A coins part written whole before by this writer is written as what changed since (a few
    // rows); otherwise whole, its records serialized ahead, STATE_CHUNK per turn.
    const delta = saveSnapshot && endpoint === 'coins' && !this.unsavedSnapshots.has(key) ? this.savedCoins.delta(exchange, next.coins) : undefined;
    const bodies: string[] = [];
    if (saveSnapshot) {
      // A storm changes every coin: serialized here, ahead, the write itself only inserts.
      const records = delta?.changed ?? snapshotRecords(next, endpoint);
      for (let i = 0; i < records.length; i += STATE_CHUNK) {
        steps.push(() => {
          for (const r of records.slice(i, i + STATE_CHUNK)) bodies.push(JSON.stringify(r));
        });
      }
    }
    steps.push(() => this.writeAlertsAhead(exchange));
    let error: string | undefined;
    steps.push(() => {
      error = this.writeAlerts(exchange, () => {
        if (deferred.length > 0) store.appendChanges(deferred);
        if (delta !== undefined) store.saveCoinsDelta(next, delta.changed, delta.gone, bodies);
        else if (saveSnapshot) store.saveSnapshot(next, endpoint, bodies);
        if (endpoint === 'tickers' && at - saved.history >= HISTORY_SAVE_MS) {
          store.saveHistory(exchange, p.history);
          saved.history = at;
        }
      }, key);
      if (error !== undefined && saveSnapshot) this.unsavedSnapshots.set(key, { snapshot: next, part: endpoint });
      if (error !== undefined) this.keepUnsaved(deferred);
      if (endpoint === 'coins' && saveSnapshot) {
        if (error === undefined) this.savedCoins.written(exchange, next.coins);
        else this.savedCoins.forget(exchange);
      }
    });
    steps.push(() => {
      notify.push(...this.storeOutcome(exchange, at, error));
      if (notify.length > 0) this.options.notify(notify);
    });
    this.steps.add(steps);
  }

  /** A decision that changed alerts only (a failed or held poll): written, then told. */
  alerts(exchange: string, at: number, notify: Alert[]): void {
    this.steps.add([
      () => {
        const failed = this.writeAlerts(exchange);
        notify.push(...this.storeOutcome(exchange, at, failed));
        if (notify.length > 0) this.options.notify(notify);
      },
    ]);
  }

  /** An exchange no longer watched: its alerts (resolved by the engine) written away, then told. */
  drop(exchange: string, notify: Alert[]): void {
    this.savedAt.delete(exchange);
    this.steps.add([
      () => this.writeAlerts(exchange),
      () => {
        if (notify.length > 0) this.options.notify(notify);
      },
    ]);
  }

  /** Resolves once every write and notification decided so far is done. */
  settled(): Promise<void> {
    return this.steps.settled();
  }

  private savedAtOf(exchange: string): { tickers: number; history: number } {
    let s = this.savedAt.get(exchange);
    if (s === undefined) {
      s = { tickers: 0, history: 0 };
      this.savedAt.set(exchange, s);
    }
    return s;
  }

  /** StoreFailing judged from a state write; resolved by a write that succeeded, the stored alerts must not keep it firing. */
  private storeOutcome(exchange: string, at: number, error: string | undefined): Alert[] {
    const told = this.options.judgeStore(exchange, at, error);
    if (error === undefined && told.length > 0) this.writeAlerts(exchange);
    return told;
  }

  /** Writes in one transaction, with whatever earlier writes could not take (see writeUnsaved); returns the error when it failed. */
  private write(fn: () => void, skip?: string): string | undefined {
    try {
      this.options.store.transaction(() => {
        this.writeUnsaved(skip);
        fn();
      });
      if (this.failing) this.options.logger.info({ changes: this.unsavedChanges.length }, 'state store writable again; what waited in memory is written');
      this.failing = false;
      this.unsavedChanges = [];
      this.unsavedSnapshots.clear();
      return undefined;
    } catch (err) {
      const error = errorMessage(err);
      if (!this.failing) this.options.logger.error({ error }, 'cannot write the state store; watching and notifying go on, changes are kept in memory until it can');
      this.failing = true;
      this.options.onStoreError?.();
      return error;
    }
  }

  /**
   * What earlier writes could not take (change rows, snapshot parts), inside the transaction of
   * the next write, whichever it is: the changes and the snapshot that showed them land together.
   * `skip` is the part the caller writes itself (newer).
   */
  private writeUnsaved(skip?: string): void {
    const store = this.options.store;
    for (const [key, u] of this.unsavedSnapshots) if (key !== skip) store.saveSnapshot(u.snapshot, u.part);
    if (this.unsavedChanges.length > 0) store.appendChanges(this.unsavedChanges);
  }

  /** Changes whose write failed wait for the next write; the oldest go past the limit, counted. */
  private keepUnsaved(changes: readonly Change[]): void {
    this.unsavedChanges.push(...changes);
    const limit = this.options.unsavedChangesLimit ?? UNSAVED_CHANGES_LIMIT;
    const excess = this.unsavedChanges.length - limit;
    if (excess <= 0) return;
    this.unsavedChanges.splice(0, excess);
    this.options.logger.error({ rows: excess, limit }, 'change history rows dropped: the store has failed for longer than memory holds them');
    this.options.onHistoryDropped?.(excess);
  }

  /** The engine's alerts of one exchange now, by fingerprint. */
  private current(exchange: string): Map<string, Alert> {
    return new Map(this.options.alertsOf(exchange));
  }

  /**
   * Writes an exchange's alerts (with `also` in the same transaction): only those that are not
   * the very objects the store holds, and deletes those gone. Lifecycle keeps an alert's
   * identity while nothing about it changes, so a poll during a long outage does not rewrite
   * 8,000 unchanged alerts. Before the first write (or after a failed one) all are rewritten.
   */
  private writeAlerts(exchange: string, also?: () => void, skip?: string): string | undefined {
    const mine = this.current(exchange);
    const last = this.savedAlerts.get(exchange);
    const changed: Alert[] = [];
    const gone: string[] = [];
    if (last !== undefined) {
      for (const a of mine.values()) if (last.get(a.fingerprint) !== a) changed.push(a);
      for (const fp of last.keys()) if (!mine.has(fp)) gone.push(fp);
    }
    const same = last !== undefined && changed.length === 0 && gone.length === 0;
    if (same && also === undefined) return undefined;
    const store = this.options.store;
    const error = this.write(() => {
      also?.();
      if (last === undefined) store.saveAlerts(exchange, mine.values());
      else if (!same) store.updateAlerts(exchange, changed, gone);
    }, skip);
    // After a failed write nothing counts as written: the next decision writes them all again.
    if (error !== undefined) this.savedAlerts.delete(exchange);
    else this.savedAlerts.set(exchange, mine);
    return error;
  }

  /**
   * The steps that write, ahead of a state write, the alerts of an exchange that changed,
   * STATE_CHUNK per turn (each its own transaction; see poll() for what a crash between them
   * means). Nothing ahead when few changed, before the first write, or while the store fails:
   * the state write takes them.
   */
  private writeAlertsAhead(exchange: string): Step[] {
    const last = this.savedAlerts.get(exchange);
    if (last === undefined || this.failing) return [];
    const changed: Alert[] = [];
    for (const a of this.options.alertsOf(exchange).values()) if (last.get(a.fingerprint) !== a) changed.push(a);
    if (changed.length <= STATE_CHUNK) return [];
    const steps: Step[] = [];
    for (let i = 0; i < changed.length; i += STATE_CHUNK) {
      const part = changed.slice(i, i + STATE_CHUNK);
      steps.push(() => {
        const saved = this.savedAlerts.get(exchange);
        if (saved === undefined || this.failing) return;
        if (this.write(() => this.options.store.updateAlerts(exchange, part, [])) !== undefined) this.savedAlerts.delete(exchange);
        else for (const a of part) saved.set(a.fingerprint, a);
      });
    }
    return steps;
  }
}
