import type { Clock } from '../lib/clock';
import { errorMessage } from '../lib/error-message';
import type { Logger } from '../lib/logger';
import { SILENCE_RETENTION_MS } from '../alerts/silence';
import { systemScheduler, type Scheduler } from '../lib/scheduler';

/** How long sent (or dead) notifications stay in the outbox table. */
export const DELIVERY_RETENTION_MS = 7 * 86_400_000;
/** How often retention runs (and once at start): it holds for a daemon that runs for months, not only across restarts. */
export const PRUNE_EVERY_MS = 3_600_000;

export interface RetentionStore {
  pruneChanges(cutoff: number): number;
  pruneDeliveries(cutoff: number): void;
  pruneSilences(cutoff: number): number;
}

export interface RetentionOptions {
  store: RetentionStore;
  clock: Clock;
  logger: Logger;
  /** history_retention of the config in force (a reload may change it). */
  historyMs: () => number;
  /** Silences were deleted: the notifications' view of them must be re-read. */
  onSilencesPruned: () => void;
  /** Changes were deleted (and with them the outages that ended before the cutoff): other connections' outage indexes must read them again. */
  onHistoryPruned?: () => void;
  /** A prune failed (a store write error, counted). */
  onError: () => void;
  scheduler?: Scheduler;
}

/** Retention of the change history, the outbox and expired silences. */
export class Retention {
  private stopTimer: (() => void) | undefined;

  constructor(private readonly o: RetentionOptions) {}

  start(): void {
    this.prune();
    this.stopTimer = (this.o.scheduler ?? systemScheduler).every(PRUNE_EVERY_MS, () => this.prune());
  }

  stop(): void {
    this.stopTimer?.();
    this.stopTimer = undefined;
  }

  prune(): void {
    const { store, clock, logger } = this.o;
    const now = clock.now();
    try {
      const removed = store.pruneChanges(now - this.o.historyMs());
      store.pruneDeliveries(now - DELIVERY_RETENTION_MS);
      if (removed > 0) {
        logger.info({ removed }, 'pruned old changes from the history');
        this.o.onHistoryPruned?.();
      }
      const silences = store.pruneSilences(now - SILENCE_RETENTION_MS);
      if (silences > 0) {
        this.o.onSilencesPruned();
        logger.info({ removed: silences }, 'deleted silences expired for longer than the retention');
      }
    } catch (err) {
      this.o.onError();
      logger.error({ error: errorMessage(err) }, 'could not prune the history');
    }
  }
}
