/**
 * The main thread's read model of the engine: what it shows and serves, kept from the engine's
 * reports (protocol.ts). The mirror (ReadModel) holds the active alerts (kept as the engine
 * reports them after each step: the API reads them at any moment), each endpoint's health, and
 * each exchange's snapshot, brought up to date when a view asks (refresh), as the parts that
 * changed since the version it has; and each exchange's notice lists, as reported whenever a
 * step changed them. ReportIntake takes every report of the poll path (delivery's go to the
 * daemon's metrics), one way: the read model,
 * the views, the metrics and the logs.
 */
import type { Alert } from '../alerts/alert';
import type { Views } from '../http/views';
import type { Logger } from '../lib/logger';
import { observeNotices, type Metrics } from '../metrics/metrics';
import type { FiringCount, PollMetrics } from '../metrics/polls';
import type { NoticeLists } from '../notices/book-json';
import { PollHealth } from '../poll/health';
import type { Rule } from '../rules/model';
import type { Change } from '../snapshot/changes';
import { emptySnapshot, type CoinRecord, type Endpoint, type Snapshot, type TickerRecord } from '../snapshot/model';
import type { StateStore } from '../store/store';
import type { Answers, PartDelta, PollReport, Question, Report } from './protocol';

/** How long a view waits for the engine's parts (busy with a storm's step, say) before it shows what it holds. */
const REFRESH_WAIT_MS = 2_000;

export class ReadModel {
  readonly health = new PollHealth();
  private readonly alerts = new Map<string, Alert>();
  private readonly firing = new Map<string, FiringCount>();
  private readonly polls = new Map<string, PollReport>();
  private readonly snapshots = new Map<string, Snapshot>();
  private readonly noticeLists = new Map<string, NoticeLists>();
  /** Per exchange, the version of each part held here. */
  private readonly held = new Map<string, Partial<Record<Endpoint, number>>>();
  private refreshing: Promise<void> | undefined;
  /** The active alerts as of the last refresh (what the views show beside the snapshots of that refresh). */
  private refreshed: Alert[];
  /** Alerts were set or removed since the last refresh. */
  private alertsChanged = false;

  constructor(
    /** Asks the engine; undefined when it has not answered in time. */
    private readonly ask: (question: Question, timeoutMs: number) => Promise<unknown>,
    /** The alerts active when the daemon stopped (what the engine starts from too). */
    restored: Iterable<Alert>,
  ) {
    for (const a of restored) this.put(a);
    this.refreshed = [...this.alerts.values()];
  }

  /** Alerts set and removed by a step. */
  applyAlerts(set: readonly Alert[], removed: readonly string[]): void {
    for (const fp of removed) this.remove(fp);
    for (const a of set) this.put(a);
    this.alertsChanged = true;
  }

  /** A poll's report: health, and the versions of the exchange's parts. */
  polled(poll: PollReport): void {
    this.polls.set(poll.exchange, poll);
    if (poll.outcome === 'failed' || poll.outcome === 'empty') this.health.failure(poll.exchange, poll.endpoint, poll.at, poll.kind ?? 'schema', poll.error ?? '');
    else this.health.answer(poll.exchange, poll.endpoint, poll.at, poll.outcome === 'accepted');
  }

  /** An exchange's notice lists, whole, as its last step (or the start) left them. */
  noticed(exchange: string, lists: NoticeLists): void {
    this.noticeLists.set(exchange, lists);
  }

  /** An exchange's notice lists (undefined: none reported yet). */
  notices(exchange: string): NoticeLists | undefined {
    return this.noticeLists.get(exchange);
  }

  activeAlerts(): IterableIterator<Alert> {
    return this.alerts.values();
  }

  /**
   * The active alerts as of the last refresh: a view shows them with the snapshots of that
   * refresh (a step's alerts are reported before its poll, so the live alerts can be a step
   * ahead of the snapshots held: a page would count an alert whose closure it does not show).
   */
  refreshedAlerts(): readonly Alert[] {
    return this.refreshed;
  }

  firingCounts(): Iterable<Readonly<FiringCount>> {
    return this.firing.values();
  }

  /** An endpoint of the exchange has failed three polls in a row. */
  isDown(exchange: string): boolean {
    return this.polls.get(exchange)?.down ?? false;
  }

  weightUsed(exchange: string): number {
    return this.polls.get(exchange)?.weightUsed ?? 0;
  }

  /** The exchange's snapshot as of the last refresh (undefined: none held). */
  snapshot(exchange: string): Snapshot | undefined {
    return this.snapshots.get(exchange);
  }

  /**
   * Brings the snapshots up to the engine's, when a poll reported a newer version or a
   * step changed the alerts: the parts that changed since, as deltas, and the alerts as of them
   * (the engine answers after every report of the steps before, so both are of the same
   * moment). One refresh at a time; one that waits longer than REFRESH_WAIT_MS leaves the
   * snapshots as they are.
   */
  refresh(): Promise<void> {
    if (!this.stale()) return Promise.resolve();
    this.refreshing ??= (async () => {
      try {
        this.alertsChanged = false;
        const answer = (await this.ask({ q: 'parts', have: Object.fromEntries(this.held) }, REFRESH_WAIT_MS)) as Answers['parts'] | undefined;
        for (const d of answer?.parts ?? []) this.apply(d);
        this.refreshed = [...this.alerts.values()];
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  /** An exchange no longer watched. */
  forget(exchange: string): void {
    this.polls.delete(exchange);
    this.snapshots.delete(exchange);
    this.noticeLists.delete(exchange);
    this.held.delete(exchange);
    this.health.forget(exchange);
  }

  private stale(): boolean {
    if (this.alertsChanged) return true;
    for (const [exchange, poll] of this.polls) {
      const held = this.held.get(exchange);
      if (held?.coins !== poll.versions.coins || held.tickers !== poll.versions.tickers) return true;
    }
    return false;
  }

  private apply(d: PartDelta): void {
    const before = this.snapshots.get(d.exchange) ?? emptySnapshot(d.exchange);
    const unknown = d.unknown === undefined ? undefined : new Set(d.unknown);
    const next: Snapshot =
      d.part === 'coins'
        ? { ...before, coins: patched(before.coins, d, (c: CoinRecord) => c.coin), coinsAt: d.at, unknownCoins: unknown }
        : { ...before, tickers: patched(before.tickers, d, (t: TickerRecord) => t.symbol), tickersAt: d.at, unknownSymbols: unknown };
    if (next.unknownCoins === undefined) delete next.unknownCoins;
    if (next.unknownSymbols === undefined) delete next.unknownSymbols;
    this.snapshots.set(d.exchange, next);
    this.held.set(d.exchange, { ...this.held.get(d.exchange), [d.part]: d.version });
  }

  private put(a: Alert): void {
    const old = this.alerts.get(a.fingerprint);
    if (old !== undefined) this.count(old, -1);
    this.alerts.set(a.fingerprint, a);
    this.count(a, 1);
  }

  private remove(fingerprint: string): void {
    const old = this.alerts.get(fingerprint);
    if (old === undefined) return;
    this.alerts.delete(fingerprint);
    this.count(old, -1);
  }

  private count(a: Alert, by: 1 | -1): void {
    if (a.status !== 'firing') return;
    const alertname = a.labels.alertname ?? '';
    const severity = a.labels.severity ?? '';
    const key = `${alertname}\u0000${severity}`;
    let entry = this.firing.get(key);
    if (entry === undefined) this.firing.set(key, (entry = { alertname, severity, n: 0 }));
    entry.n += by;
  }
}

/** A part's records brought up to a delta: the whole of it, or what changed and what went. */
function patched<R>(held: ReadonlyMap<string, R>, d: PartDelta, keyOf: (r: R) => string): Map<string, R> {
  const records = new Map(d.whole ? [] : held);
  for (const key of d.gone) records.delete(key);
  for (const r of d.changed as R[]) records.set(keyOf(r), r);
  return records;
}

/** What the gauges that follow every poll read (see PollMetrics.after). */
export interface GaugeSources {
  rules(): readonly Rule[];
  firing(): Iterable<Readonly<FiringCount>>;
}

export interface ReportIntakeOptions {
  logger: Logger;
  mirror: ReadModel;
  metrics: Metrics;
  pollMetrics: PollMetrics;
  views: Views;
  store: () => StateStore | undefined;
  /** The engine took a configuration (every exchange watched), or could not (`error`). */
  ready(error?: string): void;
  gauges: GaugeSources;
}

/** Changes logged one by one per poll at most; past it, a line says how many more. */
const LOGGED_CHANGES = 50;

/**
 * Where the engine's reports go in the main thread, one way: the mirror of its alerts and
 * health, the views, the metrics and the logs (what to tell goes to the engine).
 */
export class ReportIntake {
  /** Per exchange, changes logged and not logged since its last poll report. */
  private readonly logged = new Map<string, { lines: number; more: number }>();
  /** Per exchange, the version of its coins part at its last report (a new one: outages were written). */
  private readonly coinsVersion = new Map<string, number>();

  constructor(private readonly o: ReportIntakeOptions) {}

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
      case 'pruned':
        return this.o.store()?.outagesTouched();
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
