import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { Worker } from 'node:worker_threads';
import { systemScheduler, type Scheduler } from '../lib/scheduler';

/**
 * Folds a database's WAL into its file off the event loop: one worker thread, with its own
 * connection, runs a PASSIVE checkpoint (which never blocks the daemon's writes) each time it is
 * asked. On the event loop the checkpoint of a storm's 4 MB WAL held it 25-45 ms. The worker is
 * started at the first checkpoint and kept (a thread started per checkpoint cost 30-50 ms of
 * CPU each to boot, once a second while the WAL file stayed large); `close()` lets a checkpoint
 * under way finish, then ends it. One checkpoint at a time; a request while one runs is
 * dropped (the next request folds in what came meanwhile).
 */
export class Checkpointer {
  private worker: Worker | undefined;
  private running = false;
  private closed = false;
  /** Resolved when the checkpoint under way is done (or the worker is gone). */
  private waiting: (() => void)[] = [];

  constructor(private readonly file: string) {}

  /** Checkpoints started so far. */
  started = 0;

  /** Starts a checkpoint unless one is running. */
  start(): void {
    if (this.running || this.closed) return;
    this.running = true;
    this.started += 1;
    this.ensureWorker().postMessage('checkpoint');
  }

  /** Whether a checkpoint is running (for tests). */
  get busy(): boolean {
    return this.running;
  }

  /** Resolves once no checkpoint runs. */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /**
   * No more checkpoints: the worker ends once the one under way (if any) is done, closing its
   * connection (when it is the last one, SQLite folds the rest of the WAL in and removes it).
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
    const worker = this.worker;
    if (worker === undefined) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    await exited;
  }

  private ensureWorker(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: this.file, module: sqliteModule() } });
    const done = (): void => {
      this.running = false;
      for (const w of this.waiting.splice(0)) w();
    };
    worker.on('message', done);
    // A failed checkpoint (a full disk, say) costs nothing: the WAL keeps the committed state, and the next one folds it in.
    worker.on('error', () => {
      if (this.worker === worker) this.worker = undefined;
      done();
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      done();
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/** Where better-sqlite3 is, for the worker (an eval'd worker resolves modules from the working directory). */
function sqliteModule(): string {
  return createRequire(__filename).resolve('better-sqlite3');
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let db;
parentPort.on('message', (what) => {
  if (what === 'close') {
    try {
      if (db !== undefined && db.open) db.close();
    } finally {
      process.exit(0);
    }
  }
  try {
    if (db === undefined || !db.open) db = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Nothing to do: see Checkpointer.
    if (db !== undefined && db.open) db.close();
    db = undefined;
  }
  parentPort.postMessage('done');
});
`;

/** The WAL size past which it is folded into the database file (SQLite's own default: 1,000 pages). */
const CHECKPOINT_WAL_BYTES = 4_000_000;
/** How often writes outside a transaction are checked for a checkpoint. */
const CHECKPOINT_EVERY_MS = 1_000;

/**
 * When a store's WAL is folded in. SQLite's own checkpoint runs inside the commit that fills
 * the WAL past 1,000 pages: a storm's 3-4 MB writes paid 50-70 ms more in their commit. It is
 * off (open.ts), and done here instead, passively, in the worker thread (Checkpointer), once the
 * WAL is past CHECKPOINT_WAL_BYTES and rows were written since the last one (a PASSIVE
 * checkpoint leaves the WAL file its size, so its size alone asked for one every second). A
 * crash in between loses nothing: the WAL is the committed state. `soon()` after a transaction;
 * a timer catches writes outside one (outbox marks, prunes).
 */
export class WalCheckpoints {
  private readonly worker: Checkpointer;
  private readonly stopTimer: () => void;
  /** A look at the WAL asked for, in a turn of its own. */
  private look: NodeJS.Immediate | undefined;
  /** The connection's total_changes() when the last checkpoint was asked for. */
  private changesAt = -1;
  private totalChanges: Database.Statement | undefined;

  constructor(private readonly db: Database.Database, scheduler: Scheduler = systemScheduler) {
    this.worker = new Checkpointer(db.name);
    this.stopTimer = scheduler.every(CHECKPOINT_EVERY_MS, () => this.soon());
  }

  /** Checkpoints started so far. */
  get started(): number {
    return this.worker.started;
  }

  /** Looks at the WAL in a turn of its own (not inside a commit), and starts a checkpoint when it is due. */
  soon(): void {
    this.look ??= setImmediate(() => {
      this.look = undefined;
      if (!this.db.open) return;
      const wal = statSync(`${this.db.name}-wal`, { throwIfNoEntry: false })?.size ?? 0;
      if (wal < CHECKPOINT_WAL_BYTES) return;
      this.totalChanges ??= this.db.prepare('SELECT total_changes()').pluck();
      const changes = this.totalChanges.get() as number;
      if (changes === this.changesAt) return;
      this.changesAt = changes;
      this.worker.start();
    });
  }

  /** No more looks (before the connection closes). */
  stop(): void {
    this.stopTimer();
    if (this.look !== undefined) clearImmediate(this.look);
    this.look = undefined;
  }

  /** Resolves once no checkpoint runs. */
  idle(): Promise<void> {
    return this.worker.idle();
  }

  /** Ends the worker, after the checkpoint under way (see Checkpointer.close). */
  close(): Promise<void> {
    return this.worker.close();
  }
}
