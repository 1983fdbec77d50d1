/**
 * The state store's file deleted while the daemon runs (a clean-up script, a volume re-mounted, an
 * operator's `rm`). SQLite does not notice: every connection goes on writing to the deleted file,
 * which nothing will read again, and a restart would start empty and tell again what was told.
 * Each thread holding a connection looks at the path on a timer (StateStore.fileState). The
 * engine, which decides StoreFailing and holds the one connection that writes, refuses the poll
 * path's writes while the file is gone (a failed write, like a full disk's: StoreFailing fires,
 * until its next check) and writes the new file at once from what the deleted one still holds
 * (StateStore.recreate), and at a stop if no check noticed it yet; the main thread's connection,
 * which only reads, moves to the new file at its next check.
 */
import { errorMessage } from '../lib/error-message';
import type { Logger } from '../lib/logger';
import type { PollStore } from '../poll/persist';
import type { StateDirLock } from '../store/lock';
import type { StateStore } from '../store/store';

/** How often each thread looks at the store's path: a deleted file is noticed within this, and written again within twice this. */
export const STORE_CHECK_MS = 15_000;

/** A thread that does not write the new file (the main thread's, which reads): moves its connection to it once it is there. */
export function followStoreFile(store: StateStore | undefined, logger: Logger, thread: string): void {
  if (store === undefined || store.fileState() !== 'replaced') return;
  try {
    store.reopen();
    logger.info({ file: store.file, thread }, 'state store file replaced; this thread now uses the new one');
  } catch (err) {
    logger.error({ file: store.file, thread, error: errorMessage(err) }, 'cannot open the new state store file; tried again at the next check');
  }
}

/** The state_dir lock (held by the main thread): written again when it is gone, as the store file is, so that no second daemon starts on the store meanwhile. */
export function keepStateDirLock(lock: StateDirLock | undefined, logger: Logger): void {
  if (lock === undefined) return;
  try {
    const found = lock.keep();
    if (found === 'restored') logger.warn({ lock: lock.file }, 'state_dir lock file deleted while running; written again');
    else if (found !== 'kept') logger.error({ lock: lock.file, holder: found }, 'state_dir lock file deleted while running, and another spotwatch took the state_dir meanwhile; stop one of them');
  } catch (err) {
    logger.error({ lock: lock.file, error: errorMessage(err) }, 'state_dir lock file deleted while running, and cannot be written again yet; tried again at the next check');
  }
}

/** The store as the poll path writes it: every write refused while `refused()` says why. */
export function refusable(store: StateStore, refused: () => string | undefined): PollStore {
  return {
    transaction: (fn) => {
      const why = refused();
      if (why !== undefined) throw new Error(why);
      return store.transaction(fn);
    },
    appendChanges: (changes) => store.appendChanges(changes),
    saveSnapshot: (snapshot, part) => store.saveSnapshot(snapshot, part),
    saveCoinsDelta: (snapshot, changed, gone) => store.saveCoinsDelta(snapshot, changed, gone),
    saveHistory: (exchange, samples) => store.saveHistory(exchange, samples),
    saveNotices: (exchange, book) => store.saveNotices(exchange, book),
    writeAlerts: (alerts, gone) => store.writeAlerts(alerts, gone),
    addPending: (alerts) => store.addPending(alerts),
  };
}
