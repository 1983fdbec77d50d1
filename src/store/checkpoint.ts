import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Folds a database's WAL into its file off the event loop: a worker thread opens its own
 * connection, runs a PASSIVE checkpoint (which never blocks the daemon's writes) and exits. On
 * the event loop the checkpoint of a storm's 4 MB WAL held it 25-45 ms. One at a time; the
 * worker lives only for its checkpoint, so there is nothing to stop at close (a checkpoint
 * still running then finishes on its own; its connection, the last one, folds the rest in).
 */
export class Checkpointer {
  private running: Worker | undefined;

  constructor(private readonly file: string) {}

  /** Starts a checkpoint unless one is running. */
  start(): void {
    if (this.running !== undefined) return;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: this.file, module: sqliteModule() } });
    this.running = worker;
    const done = (): void => {
      if (this.running === worker) this.running = undefined;
    };
    // A failed checkpoint (a full disk, say) costs nothing: the WAL keeps the committed state, and the next one folds it in.
    worker.on('error', done);
    worker.on('exit', done);
    worker.unref();
  }

  /** Whether a checkpoint is running (for tests). */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Resolves once no checkpoint runs (the worker has exited and closed its connection). */
  idle(): Promise<void> {
    const worker = this.running;
    if (worker === undefined) return Promise.resolve();
    return new Promise((resolve) => worker.once('exit', () => resolve()));
  }
}

/** Where better-sqlite3 is, for the worker (an eval'd worker resolves modules from the working directory). */
function sqliteModule(): string {
  return createRequire(__filename).resolve('better-sqlite3');
}

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let db;
try {
  db = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
  db.pragma('wal_checkpoint(PASSIVE)');
} catch {
  // Nothing to do: see Checkpointer.
} finally {
  if (db !== undefined && db.open) db.close();
}
`;
