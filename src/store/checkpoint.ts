import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { systemScheduler, type Scheduler } from '../lib/scheduler';

/** The WAL size past which it is folded into the database file (SQLite's own default: 1,000 pages). */
const CHECKPOINT_WAL_BYTES = 4_000_000;
/** How often writes outside a transaction are checked for a checkpoint. */
const CHECKPOINT_EVERY_MS = 1_000;

/**
 * When a store's WAL is folded in. SQLite's own checkpoint runs inside the commit that fills
 * the WAL past 1,000 pages: a storm's 3-4 MB writes paid 50-70 ms more in their commit. It is
 * off (open.ts), and done here instead, passively (it never blocks another connection's writes),
 * in a turn of its own on the connection's thread (the engine's: the thread that writes), once
 * the WAL is past CHECKPOINT_WAL_BYTES and this connection wrote rows since the last one (a
 * PASSIVE checkpoint leaves the WAL file its size, so its size alone asked for one every
 * second; a connection that only reads never checkpoints). A crash in between loses nothing:
 * the WAL is the committed state. `soon()` after a transaction; a timer catches writes outside
 * one (outbox marks, prunes).
 */
export class WalCheckpoints {
  private readonly stopTimer: () => void;
  /** Checkpoints started so far. */
  started = 0;
  /** Cancels the look at the WAL asked for, in a turn of its own. */
  private look: (() => void) | undefined;
  /** The connection's total_changes() when the last checkpoint was done (none written since it opened: none due). */
  private changesAt = 0;
  private totalChanges: Database.Statement | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly scheduler: Scheduler = systemScheduler,
  ) {
    this.stopTimer = scheduler.every(CHECKPOINT_EVERY_MS, () => this.soon());
  }

  /** Looks at the WAL in a turn of its own (not inside a commit), and starts a checkpoint when it is due. */
  soon(): void {
    this.look ??= this.scheduler.soon(() => {
      this.look = undefined;
      if (!this.db.open) return;
      // Nothing written since the last checkpoint (a connection that only reads, an idle one): not even the WAL's size is looked at.
      this.totalChanges ??= this.db.prepare('SELECT total_changes()').pluck();
      const changes = this.totalChanges.get() as number;
      if (changes === this.changesAt) return;
      const wal = statSync(`${this.db.name}-wal`, { throwIfNoEntry: false })?.size ?? 0;
      if (wal < CHECKPOINT_WAL_BYTES) return;
      this.changesAt = changes;
      this.started += 1;
      try {
        this.db.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // A failed checkpoint (a full disk, say) costs nothing: the WAL keeps the committed state, and the next one folds it in.
      }
    });
  }

  /** No more looks (before the connection closes). */
  stop(): void {
    this.stopTimer();
    this.look?.();
    this.look = undefined;
  }
}
