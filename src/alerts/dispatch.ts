import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import { sleep } from '../lib/sleep';
import { NotifyError, type Notifier } from '../notify/notifier';
import type { Alert } from './alert';
import { buildDelivery, groupAlerts } from './notification';

export interface ReceiverEntry {
  notifier: Notifier;
  sendResolved: boolean;
}

export interface DispatchOptions {
  receivers: readonly ReceiverEntry[];
  groupBy: readonly string[];
  externalURL: string;
  clock: Clock;
  logger: Logger;
  /** Attempts per delivery before giving up (the durable outbox replaces this). */
  attempts?: number;
  /** Told of every delivery outcome (metrics). */
  onOutcome?: (receiver: string, outcome: 'success' | 'failed' | 'retry', reason?: string) => void;
}

/**
 * Hands each poll's notifications to every receiver, one body per group (`group_by`),
 * sending in the background with a few retries. `flush()` waits for what is in flight.
 */
export class Dispatcher {
  private readonly inflight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(private readonly options: DispatchOptions) {}

  dispatch(alerts: readonly Alert[]): void {
    const now = this.options.clock.now();
    for (const { notifier, sendResolved } of this.options.receivers) {
      const wanted = sendResolved ? alerts : alerts.filter((a) => a.status !== 'resolved');
      for (const group of groupAlerts(wanted, this.options.groupBy)) {
        const delivery = buildDelivery(notifier.name, group.labels, group.alerts, this.options.externalURL, now);
        const p = this.send(notifier, delivery).finally(() => this.inflight.delete(p));
        this.inflight.add(p);
      }
    }
  }

  async flush(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /** Abandons retries and waits for sends in flight. */
  async stop(): Promise<void> {
    this.stopping.abort(new Error('stopping'));
    await this.flush();
  }

  private async send(notifier: Notifier, delivery: Parameters<Notifier['send']>[0]): Promise<void> {
    const attempts = this.options.attempts ?? 3;
    const log = this.options.logger;
    for (let attempt = 1; ; attempt++) {
      try {
        await notifier.send(delivery, this.stopping.signal);
        this.options.onOutcome?.(notifier.name, 'success');
        return;
      } catch (err) {
        if (this.stopping.signal.aborted) return;
        const e = err instanceof NotifyError ? err : new NotifyError(err instanceof Error ? err.message : String(err), 'other', false);
        if (!e.retryable || attempt >= attempts) {
          this.options.onOutcome?.(notifier.name, 'failed', e.reason);
          log.error({ receiver: notifier.name, reason: e.reason, groupKey: delivery.notification.groupKey, error: e.message }, 'notification failed');
          return;
        }
        this.options.onOutcome?.(notifier.name, 'retry', e.reason);
        await sleep(e.retryAfterMs ?? 1000 * 2 ** (attempt - 1), this.stopping.signal).catch(() => undefined);
      }
    }
  }
}
