import type { Logger } from '../lib/logger';
import type { Metrics } from '../metrics/metrics';
import type { NotificationsDeps } from '../notifications';
import type { StateStore } from '../store/store';

/**
 * What the daemon's parts report, counted: the callbacks that turn outcomes of the store and of
 * the notification path into metrics (and log lines), made once here instead of inline in the
 * composition root.
 */

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

/** The notification path's outcomes as counters: deliveries by outcome and reason, latency, store errors, drops. */
export function notificationMeters(metrics: Metrics): Pick<NotificationsDeps, 'onOutcome' | 'onStoreError' | 'onDropped'> {
  return {
    onOutcome: (receiver, outcome, reason, latencyMs) => {
      metrics.notifications.inc({ receiver, outcome });
      if (outcome !== 'success') metrics.notificationsFailed.inc({ receiver, reason: reason ?? 'other' });
      if (latencyMs !== undefined) metrics.notificationLatency.observe({ receiver }, latencyMs / 1000);
    },
    onStoreError: () => metrics.storeWriteErrors.inc(),
    onDropped: (receiver) => metrics.notificationsDropped.inc({ receiver }),
  };
}
