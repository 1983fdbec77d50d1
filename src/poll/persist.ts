/**
 * What `step` decided to write, written: one transaction per step. A store that refuses the
 * write (a full disk, a read-only file) keeps nothing from this side: what could not be
 * written waits here, merged with what follows (the latest part and alert of each key, every
 * change in order, at most `limit` of those), and goes with the next write that succeeds, so
 * the changes and the snapshot that showed them land together and a restart reports nothing
 * twice. The caller hands the outcome back to `step` (StoreFailing is decided there).
 */
import type { Alert } from '../alerts/alert';
import { errorMessage } from '../lib/error-message';
import type { NoticeBook } from '../notices/book';
import type { Samples } from '../rules/ticker-samples';
import type { Change } from '../snapshot/changes';
import type { CoinRecord, Endpoint, Snapshot } from '../snapshot/model';
import type { Write } from './step';

/**
 * Change rows kept in memory at most while the store cannot be written (about 20 MB); past it
 * the oldest are dropped and counted.
 */
const UNSAVED_CHANGES_LIMIT = 100_000;

/**
 * What the poll path needs of the store (SQLite's StateStore in production). `transaction(fn)`:
 * every write made inside `fn` lands, or none does; it throws when the store refuses. The
 * writes are idempotent replacements, but `appendChanges`, which appends in the order given.
 * `saveSnapshot` stores a part whole; `saveCoinsDelta` brings a coins part stored whole before
 * up to `snapshot` (the `changed` coins written, the `gone` ones deleted).
 */
export interface PollStore {
  transaction<T>(fn: () => T): T;
  appendChanges(changes: readonly Change[]): void;
  saveSnapshot(snapshot: Snapshot, part: Endpoint): void;
  saveCoinsDelta(snapshot: Snapshot, changed: readonly CoinRecord[], gone: readonly string[]): void;
  saveHistory(exchange: string, samples: Samples): void;
  saveNotices(exchange: string, book: NoticeBook): void;
  writeAlerts(alerts: Iterable<Alert>, gone: Iterable<string>): void;
  /** Alerts handed to delivery, kept until it has them in its outbox; their ids, in order. */
  addPending(alerts: readonly Alert[]): number[];
}

/** The outcome of one write: the store's error, if it refused, change rows dropped past the limit, and the ids of the pending notifications it kept (none when it refused). */
export interface Written {
  error: string | undefined;
  dropped: number;
  pending: number[];
}

export class Persist {
  /** Changes not written yet, oldest first. */
  private changes: Change[] = [];
  /** Snapshot parts not written yet, by exchange and part (the latest). */
  private readonly parts = new Map<string, { snapshot: Snapshot; part: Endpoint }>();
  private readonly samples = new Map<string, Samples>();
  private readonly notices = new Map<string, NoticeBook>();
  /** Alerts not written yet, by fingerprint: the alert, or null for one to delete. */
  private readonly alerts = new Map<string, Alert | null>();
  /** Per exchange, the coins as the store holds them (what a coins write is a delta of); none before a whole write, or after a failed one. */
  private readonly storedCoins = new Map<string, ReadonlyMap<string, CoinRecord>>();

  constructor(
    private readonly store: PollStore,
    private readonly limit = UNSAVED_CHANGES_LIMIT,
  ) {}

  /** The store is another file now: the next write of each coins part is whole, not a delta of what the old file held. */
  rewriteWhole(): void {
    this.storedCoins.clear();
  }

  /** Whether something waits for a write that succeeds. */
  get waiting(): boolean {
    return this.changes.length > 0 || this.parts.size > 0 || this.samples.size > 0 || this.notices.size > 0 || this.alerts.size > 0;
  }

  write(w: Write): Written {
    this.changes.push(...w.changes);
    if (w.snapshot !== undefined) this.parts.set(`${w.snapshot.snapshot.exchange}\u0000${w.snapshot.part}`, w.snapshot);
    if (w.samples !== undefined) this.samples.set(w.samples.exchange, w.samples.samples);
    if (w.notices !== undefined) this.notices.set(w.notices.exchange, w.notices.book);
    for (const fp of w.alerts.removed) this.alerts.set(fp, null);
    for (const a of w.alerts.set) this.alerts.set(a.fingerprint, a);
    let pending: number[] = [];
    try {
      this.store.transaction(() => {
        if (this.changes.length > 0) this.store.appendChanges(this.changes);
        for (const { snapshot, part } of this.parts.values()) this.saveSnapshot(snapshot, part);
        for (const [exchange, samples] of this.samples) this.store.saveHistory(exchange, samples);
        for (const [exchange, book] of this.notices) this.store.saveNotices(exchange, book);
        if (this.alerts.size > 0) {
          const set: Alert[] = [];
          const gone: string[] = [];
          for (const [fp, a] of this.alerts) {
            if (a === null) gone.push(fp);
            else set.push(a);
          }
          this.store.writeAlerts(set, gone);
        }
        // Never kept for a later write: by then they may have been delivered (a restart would tell them again).
        if (w.pending.length > 0) pending = this.store.addPending(w.pending);
      });
    } catch (err) {
      // What the store holds of the coins is no longer known: the next coins write is whole.
      for (const { snapshot, part } of this.parts.values()) if (part === 'coins') this.storedCoins.delete(snapshot.exchange);
      const dropped = Math.max(0, this.changes.length - this.limit);
      if (dropped > 0) this.changes.splice(0, dropped);
      return { error: errorMessage(err), dropped, pending: [] };
    }
    for (const { snapshot, part } of this.parts.values()) if (part === 'coins') this.storedCoins.set(snapshot.exchange, snapshot.coins);
    this.changes = [];
    this.parts.clear();
    this.samples.clear();
    this.notices.clear();
    this.alerts.clear();
    return { error: undefined, dropped: 0, pending };
  }

  /** A coins part is written as what changed since the store last took it (merge keeps an unchanged coin's object), or whole. */
  private saveSnapshot(snapshot: Snapshot, part: Endpoint): void {
    const stored = part === 'coins' ? this.storedCoins.get(snapshot.exchange) : undefined;
    if (stored === undefined) {
      this.store.saveSnapshot(snapshot, part);
      return;
    }
    const changed: CoinRecord[] = [];
    const gone: string[] = [];
    for (const [coin, c] of snapshot.coins) if (stored.get(coin) !== c) changed.push(c);
    for (const coin of stored.keys()) if (!snapshot.coins.has(coin)) gone.push(coin);
    this.store.saveCoinsDelta(snapshot, changed, gone);
  }
}
