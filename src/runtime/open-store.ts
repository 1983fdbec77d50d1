import type { Logger } from '../lib/logger';
import type { Metrics } from '../metrics/metrics';
import type { StateStore } from '../store/store';

/**
 * Opens the state store with the daemon's reporting of what it found unreadable, and loads its
 * outage index (the status page's first read after a restart need not wait).
 */
export function openMeteredStore(open: typeof StateStore.open, stateDir: string, logger: Logger, metrics: Metrics, now: number): StateStore {
  const store = open(
    stateDir,
    (message, movedTo) => logger.error({ error: message, movedTo }, 'state store unreadable; moved aside, starting with empty state'),
    (rows) => {
      logger.error({ rows }, 'unreadable rows in the state store set aside (table set_aside); going on with the rest');
      for (const [table, n] of Object.entries(rows)) metrics.rowsSetAside.inc({ table }, n);
    },
  );
  store.warmOutageIndex(now);
  return store;
}
