import type { FiringCount } from '../alerts/lifecycle';
import type { Logger } from '../lib/logger';
import type { Exposition } from '../metrics/exposition';
import type { Metrics } from '../metrics/metrics';
import type { PollMetrics } from '../metrics/polls';
import type { Decision } from '../poll/engine';
import type { PollHealth } from '../poll/health';
import type { PollObserver } from '../poll/path';
import type { PollFailure, PollSuccess } from '../poll/poller';
import type { Rule } from '../rules/model';
import type { Change } from '../snapshot/changes';
import { networkCount, type Snapshot } from '../snapshot/model';
import type { Views } from '../http/views';
import { drain, inTurns } from '../lib/timer';

/** What the gauges that follow every poll read (see PollMetrics.after). */
export interface GaugeSources {
  weightUsed(exchange: string): number;
  rules(): readonly Rule[];
  firing(): Iterable<Readonly<FiringCount>>;
  receivers(): readonly string[];
  pending(receiver: string): number;
  deadLetters(): ReadonlyMap<string, number>;
}

export interface DaemonObserverOptions {
  logger: Logger;
  health: PollHealth;
  metrics: Metrics;
  pollMetrics: PollMetrics;
  exposition: Exposition;
  views: Views;
  gauges: GaugeSources;
}

function summary(s: Snapshot): { coins: number; networks: number; tickers: number } {
  return { coins: s.coins.size, networks: networkCount(s.coins), tickers: s.tickers.size };
}

/** Where the poll path's outcomes go in the daemon: logs, metrics, health, the exposition and the views. */
/** Changes logged one by one at most; past it, a line says how many more. */
const LOGGED_CHANGES = 50;
/** Change lines logged per turn of the event loop. */
const LOGGED_AT_ONCE = 10;

function* logChanges(logger: Logger, exchange: string, changes: readonly Change[]): Generator<void> {
  for (let i = 0; i < Math.min(changes.length, LOGGED_CHANGES); i += LOGGED_AT_ONCE) {
    yield;
    for (const c of changes.slice(i, Math.min(i + LOGGED_AT_ONCE, LOGGED_CHANGES))) logger.info({ ...c, exchange }, 'change');
  }
  if (changes.length > LOGGED_CHANGES) logger.info({ exchange, more: changes.length - LOGGED_CHANGES }, 'more changes not logged one by one');
}

export class DaemonPollObserver implements PollObserver {
  constructor(private readonly o: DaemonObserverOptions) {}

  changes(exchange: string, changes: readonly Change[]): void {
    const { logger, views, metrics } = this.o;
    views.observe(exchange, changes);
    // Counted per kind: 16,000 changes of a storm, one inc each, held the loop 20-30 ms.
    const byKind = new Map<string, number>();
    for (const c of changes) byKind.set(c.kind, (byKind.get(c.kind) ?? 0) + 1);
    for (const [kind, n] of byKind) metrics.changes.inc({ exchange, kind }, n);
    if (changes.length <= LOGGED_AT_ONCE) drain(logChanges(logger, exchange, changes));
    // A storm's first lines in later turns, LOGGED_AT_ONCE per turn: a line costs pino 0.1-0.3 ms
    // (its redaction), and 50 of them with the decision held the loop 10-20 ms more.
    else void inTurns(logChanges(logger, exchange, changes));
  }

  answered(poll: PollSuccess, decision: Decision): void {
    const { logger: log, pollMetrics, health, exposition } = this.o;
    const { outcome, snapshot: kept } = decision;
    // One line per poll, however many records: a storm of broken records must not flood the log.
    if (poll.issues.length > 0) log.warn({ exchange: poll.exchange, endpoint: poll.endpoint, records: poll.issues.length, first: poll.issues.slice(0, 5) }, 'malformed records kept at their previous values');
    pollMetrics.answered(poll, poll.issues.length, outcome, kept.coins.size);
    if (outcome === 'empty') {
      log.warn({ exchange: poll.exchange, endpoint: poll.endpoint }, 'poll failed: empty list, not taken as real');
      health.failure(poll.exchange, poll.endpoint, poll.at, 'schema', `${poll.endpoint}: empty list`);
    } else {
      health.answer(poll.exchange, poll.endpoint, poll.at, outcome === 'accepted');
      if (outcome === 'accepted') exposition.update(kept, poll.endpoint);
      if (log.isLevelEnabled('debug')) log.debug({ exchange: poll.exchange, endpoint: poll.endpoint, ms: poll.durationMs, bytes: poll.bytes, malformed: poll.issues.length, ...summary(kept) }, 'poll ok');
    }
    this.after(poll.exchange);
  }

  failed(poll: PollFailure): void {
    this.o.logger.warn({ exchange: poll.exchange, endpoint: poll.endpoint, kind: poll.error.kind, ms: poll.durationMs, error: poll.error.message }, 'poll failed');
    this.o.pollMetrics.failed(poll, poll.error.kind);
    this.o.health.failure(poll.exchange, poll.endpoint, poll.at, poll.error.kind, poll.error.message);
    this.after(poll.exchange);
  }

  private after(exchange: string): void {
    const g = this.o.gauges;
    this.o.pollMetrics.after(exchange, {
      up: this.o.health.up(exchange),
      weightUsed: g.weightUsed(exchange),
      rules: g.rules(),
      firing: g.firing(),
      receivers: g.receivers(),
      pending: (r) => g.pending(r),
      deadLetters: g.deadLetters(),
    });
  }
}
