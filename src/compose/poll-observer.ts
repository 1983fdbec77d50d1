import type { Logger } from '../lib/logger';
import { observeNotices, type Metrics } from '../metrics/metrics';
import type { FiringCount, PollMetrics } from '../metrics/polls';
import type { PollReport, Report } from '../poll/protocol';
import type { Rule } from '../rules/model';
import type { Change } from '../snapshot/changes';
import type { Views } from '../http/views';
import type { StateStore } from '../store/store';
import type { PollMirror } from './poll-mirror';

/** What the gauges that follow every poll read (see PollMetrics.after). */
export interface GaugeSources {
  rules(): readonly Rule[];
  firing(): Iterable<Readonly<FiringCount>>;
}

export interface PollObserverOptions {
  logger: Logger;
  mirror: PollMirror;
  metrics: Metrics;
  pollMetrics: PollMetrics;
  views: Views;
  store: () => StateStore | undefined;
  /** The poll thread took a configuration (every exchange watched), or could not (`error`). */
  ready(error?: string): void;
  gauges: GaugeSources;
}

/** Changes logged one by one per poll at most; past it, a line says how many more. */
const LOGGED_CHANGES = 50;

/**
 * Where the poll thread's reports go in the main thread, one way: the mirror of its alerts and
 * health, the views, the metrics and the logs (what to tell goes to the delivery thread).
 */
export class PollObserver {
  /** Per exchange, changes logged and not logged since its last poll report. */
  private readonly logged = new Map<string, { lines: number; more: number }>();
  /** Per exchange, the version of its coins part at its last report (a new one: outages were written). */
  private readonly coinsVersion = new Map<string, number>();

  constructor(private readonly o: PollObserverOptions) {}

  on(report: Report): void {
    switch (report.t) {
      case 'alerts':
        return this.o.mirror.applyAlerts(report.set, report.removed);
      case 'changes':
        return this.changes(report.exchange, report.changes);
      case 'polled':
        return this.polled(report.poll);
      case 'wrote':
        if (report.error !== undefined) this.o.metrics.storeWriteErrors.inc();
        if (report.dropped > 0) this.o.metrics.historyDropped.inc(report.dropped);
        return;
      case 'notice-failed':
        this.o.metrics.noticeErrors.inc({ exchange: report.exchange, source: report.source, kind: report.kind });
        return;
      case 'notices':
        this.o.mirror.noticed(report.exchange, report.lists);
        return observeNotices(this.o.metrics, report.exchange, report.lists, report.firstRead);
      case 'ready':
        return this.o.ready();
      case 'failed':
        return this.o.ready(report.error);
      default:
        return;
    }
  }

  private changes(exchange: string, changes: readonly Change[]): void {
    const { logger, views, metrics } = this.o;
    views.observe(exchange, changes);
    const store = this.o.store();
    // Counted per kind: 16,000 changes of a storm, one inc each, held the loop 20-30 ms.
    const byKind = new Map<string, number>();
    for (const c of changes) {
      byKind.set(c.kind, (byKind.get(c.kind) ?? 0) + 1);
      if (c.coin !== undefined) store?.outagesTouched(exchange, c.coin);
    }
    for (const [kind, n] of byKind) metrics.changes.inc({ exchange, kind }, n);
    let logged = this.logged.get(exchange);
    if (logged === undefined) this.logged.set(exchange, (logged = { lines: 0, more: 0 }));
    for (const c of changes) {
      if (logged.lines < LOGGED_CHANGES) {
        logged.lines += 1;
        logger.info({ ...c, exchange }, 'change');
      } else logged.more += 1;
    }
  }

  private polled(poll: PollReport): void {
    const { logger: log, pollMetrics, mirror, gauges } = this.o;
    const { exchange, endpoint } = poll;
    const logged = this.logged.get(exchange);
    if (logged !== undefined) {
      if (logged.more > 0) log.info({ exchange, more: logged.more }, 'more changes not logged one by one');
      this.logged.delete(exchange);
    }
    // A new coins part was written: the outages written with it (first snapshot, closures before watching) are read back.
    if (this.coinsVersion.get(exchange) !== poll.versions.coins) {
      this.coinsVersion.set(exchange, poll.versions.coins);
      this.o.store()?.outagesTouched(exchange);
    }
    mirror.polled(poll);
    if (poll.outcome === 'failed') {
      log.warn({ exchange, endpoint, kind: poll.kind, ms: poll.durationMs, error: poll.error }, 'poll failed');
      pollMetrics.failed(poll, poll.kind ?? 'other');
    } else {
      // One line per poll, however many records: a storm of broken records must not flood the log.
      if (poll.issues > 0) log.warn({ exchange, endpoint, records: poll.issues, first: poll.firstIssues }, 'malformed records kept at their previous values');
      pollMetrics.answered(poll, poll.issues, poll.outcome, poll.coins);
      if (poll.outcome === 'empty') log.warn({ exchange, endpoint }, 'poll failed: empty list, not taken as real');
      else if (log.isLevelEnabled('debug')) log.debug({ exchange, endpoint, ms: poll.durationMs, bytes: poll.bytes, malformed: poll.issues, coins: poll.coins, networks: poll.networks, tickers: poll.tickers }, 'poll ok');
    }
    pollMetrics.after(exchange, {
      up: mirror.health.up(exchange),
      weightUsed: poll.weightUsed,
      rules: gauges.rules(),
      firing: gauges.firing(),
    });
  }
}
