import { anySignal } from '../../lib/abort';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import { sleep } from '../../lib/sleep';
import { wallSince } from '../../lib/time-base';
import { NotifyError, type Delivery, type Notifier } from '../notifier';
import { systemScheduler } from '../../lib/scheduler';

/** The outbox as the retry stage sees it (the store implements it). */
export interface OutboxPort {
  dueDeliveries(receiver: string, now: number, limit: number): { id: number; delivery: Delivery; createdAt: number; attempts: number; notificationJson?: string }[];
  nextDeliveryAt(receiver: string): number | undefined;
  deliveryDone(id: number, now: number): void;
  deliveryRetry(id: number, attempts: number, nextAt: number, error: string): void;
  deliveryDead(id: number, attempts: number, error: string, now: number): void;
  pendingDeliveries(receiver: string): number;
  /** Whether the last look could not read the outbox (a port that hides its read errors says so here). */
  readonly readFailing?: boolean;
}

export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  /** A delivery older than this goes to the dead letters instead of another attempt. */
  maxAgeMs: number;
}

export type Outcome = 'success' | 'retry' | 'failed';

/**
 * The longest Retry-After a due time is taken to stand for: a stored due time further ahead than
 * this (and than max_delay) was written by a clock since set back.
 */
const MAX_RETRY_AFTER_MS = 3_600_000;

/** The safety net's wait when nothing is due: commits wake the stage at once. */
const IDLE_MS = 30_000;
/** How soon the outbox is read again after a read failed. */
const READ_AGAIN_MS = 1_000;

export interface RetryStageOptions {
  notifier: Notifier;
  port: OutboxPort;
  policy: RetryPolicy;
  clock: Clock;
  random: () => number;
  logger: Logger;
  /** Told of every attempt; `latencyMs` (on success) is the time since the delivery entered the outbox. */
  onOutcome?: (receiver: string, outcome: Outcome, reason?: string, latencyMs?: number) => void;
  /**
   * Longest wait between looks at the outbox when nothing is due (IDLE_MS unless given): what
   * is committed wakes the stage (`wake`), so this is only a safety net; after a failed read of
   * the outbox it looks again within READ_AGAIN_MS.
   */
  idleMs?: number;
  /**
   * The daemon has just started: at the first look every pending delivery is due, whatever retry
   * time an earlier process stored (a crash or a restart is the moment to try again; a receiver
   * that recovered meanwhile should not wait out a backoff of up to max_delay, nor the
   * deliveries queued behind it). Not at a reload, which keeps the backoff.
   */
  resumed?: boolean;
}

/**
 * The delay before attempt `attempts + 1`: exponential, capped, with equal jitter (half of it
 * fixed, half random), so retries of many deliveries spread out but never come at once.
 */
export function retryDelay(attempts: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * The last stage, one per receiver, on the far side of the durable outbox: delivers the
 * receiver's outbox in order and on its own. The notifier only says whether a failure is worth
 * retrying and why (NotifyError: retryable, reason, a Retry-After it was given); this stage owns
 * the backoff, the maximum age and the dead letters. A receiver that is down delays only itself.
 */
export class RetryStage {
  /** Set at stop: no new attempt starts. */
  private readonly stopping = new AbortController();
  /** Set when the grace period runs out: the attempt in flight is abandoned. */
  private readonly abandon = new AbortController();
  private wakeUp = new AbortController();
  private loop: Promise<void> | undefined;
  /**
   * The retry this stage set last: its outbox id, its due time as stored (wall) and on the
   * monotonic clock. A wall clock set back does not hold it back: once its monotonic time has
   * come it is asked for as due, whatever the wall clock says.
   */
  private retrying: { id: number; nextAt: number; due: number } | undefined;
  constructor(private readonly options: RetryStageOptions) {}

  get name(): string {
    return this.options.notifier.name;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Something new is in the outbox. */
  wake(): void {
    this.wakeUp.abort();
  }

  /**
   * Lets the attempt in flight finish (so an acknowledged delivery is marked done and never
   * sent again), up to `graceMs`; then abandons it, leaving it pending for the next start.
   */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopping.abort(new Error('stopping'));
    if (this.loop === undefined) return;
    const cancel = systemScheduler.after(graceMs, () => this.abandon.abort(new Error('stopping')));
    await this.loop;
    cancel();
  }

  private async run(): Promise<void> {
    const { port, clock, notifier } = this.options;
    const idle = this.options.idleMs ?? IDLE_MS;
    // The first look after a start (RetryStageOptions.resumed): everything pending is due.
    let resuming = this.options.resumed === true;
    while (!this.stopping.signal.aborted) {
      this.wakeUp = new AbortController();
      let items: ReturnType<OutboxPort['dueDeliveries']> = [];
      let unread = false;
      try {
        items = port.dueDeliveries(notifier.name, resuming ? Number.MAX_SAFE_INTEGER : this.asOf(), 20);
      } catch (err) {
        unread = true;
        this.options.logger.error({ err, receiver: notifier.name }, 'cannot read the outbox');
      }
      unread ||= port.readFailing === true;
      let delivered = items.length > 0;
      if (resuming && items.length > 0) this.options.logger.info({ receiver: notifier.name, pending: port.pendingDeliveries(notifier.name) }, 'delivering what was pending when spotwatch stopped, at once');
      // Until a look has read the outbox, what was pending at the start is still due at once.
      if (!unread) resuming = false;
      for (const item of items) {
        if (this.stopping.signal.aborted) return;
        // In order: a delivery waiting for a retry holds back the ones after it.
        if (!(await this.attempt(item))) {
          delivered = false;
          break;
        }
      }
      if (delivered) continue;
      const next = port.nextDeliveryAt(notifier.name);
      const r = this.retrying;
      const left = r !== undefined && r.nextAt === next ? r.due - clock.monotonic() : next === undefined ? idle : next - clock.now();
      const wait = Math.max(0, Math.min(unread ? Math.min(idle, READ_AGAIN_MS) : idle, left));
      const linked = anySignal([this.stopping.signal, this.wakeUp.signal]);
      await sleep(wait, linked.signal).catch(() => undefined);
      linked.release();
    }
  }

  /**
   * The wall time to ask the outbox what is due at: now, or, when the retry this stage set has
   * come on the monotonic clock, its stored due time (the wall clock was set back since); and a
   * stored due time further ahead than any delay this stage sets (written before the clock was
   * set back, and the process restarted) counts as due now, never as an hour away.
   */
  private asOf(): number {
    const { port, clock, notifier, policy } = this.options;
    const now = clock.now();
    const r = this.retrying;
    const next = port.nextDeliveryAt(notifier.name);
    if (next === undefined || next <= now) return now;
    if (r !== undefined && r.nextAt === next) return clock.monotonic() >= r.due ? next : now;
    return next - now > Math.max(policy.maxMs, MAX_RETRY_AFTER_MS) ? next : now;
  }

  /** True when the delivery is finished with (sent, or dead): the next one may go. */
  private async attempt(item: ReturnType<OutboxPort['dueDeliveries']>[number]): Promise<boolean> {
    const { port, clock, notifier, policy, logger } = this.options;
    const attempts = item.attempts + 1;
    try {
      await notifier.send(item.delivery, this.abandon.signal, item.notificationJson);
      const done = clock.now();
      port.deliveryDone(item.id, done);
      this.options.onOutcome?.(notifier.name, 'success', undefined, wallSince(item.createdAt, done));
      return true;
    } catch (err) {
      if (this.abandon.signal.aborted) return false; // still pending: sent again after the restart
      const e = err instanceof NotifyError ? err : new NotifyError(err instanceof Error ? err.message : String(err), 'other', false);
      const now = clock.now();
      const tooOld = wallSince(item.createdAt, now) >= policy.maxAgeMs;
      if (!e.retryable || tooOld) {
        port.deliveryDead(item.id, attempts, e.message, now);
        this.options.onOutcome?.(notifier.name, 'failed', e.reason);
        logger.error({ receiver: notifier.name, reason: e.reason, attempts, groupKey: item.delivery.notification.groupKey, error: e.message }, tooOld ? 'delivery too old; moved to the dead letters' : 'delivery failed for good; moved to the dead letters');
        return true;
      }
      const delay = e.retryAfterMs ?? retryDelay(attempts, policy, this.options.random);
      port.deliveryRetry(item.id, attempts, now + delay, e.message);
      this.retrying = { id: item.id, nextAt: now + delay, due: clock.monotonic() + delay };
      this.options.onOutcome?.(notifier.name, 'retry', e.reason);
      logger.warn({ receiver: notifier.name, reason: e.reason, attempts, retryInMs: delay, error: e.message }, 'delivery failed; will retry');
      return false;
    }
  }
}
