import type { Alert } from '../../alerts/alert';
import type { LogEntry } from '../../alerts/dedup';
import { Aggregator, type Flush } from '../../alerts/groups';
import { compileInhibitRules, InhibitionIndex } from '../../alerts/inhibit';
import type { CompiledRoutes } from '../../alerts/route';
import type { Muter } from '../../alerts/silence';
import type { Logger } from '../../lib/logger';
import { dedupStage } from './dedup-stage';
import { inhibitStage } from './inhibit-stage';
import { muteStage } from './mute-stage';
import { outboxStage } from './outbox-stage';
import { SkipUnchanged } from './skip-unchanged-stage';
import { fanOut, sequence, type CommitItem, type Stage } from './stage';

/** What the pipeline needs from storage: the notification log, and a durable hand-over. */
export interface PipelinePort {
  logEntry(receiver: string, groupKey: string): LogEntry | undefined;
  /**
   * Durably accepts the deliveries and the log entries together (one transaction): once this
   * returns, a delivery is sent even across a crash, and the log says it was told.
   */
  commit(items: readonly CommitItem[], donePending: readonly number[]): void;
}

export interface PipelineOptions {
  routes: CompiledRoutes;
  receivers: ReadonlyMap<string, { sendResolved: boolean }>;
  inhibitRules: ReturnType<typeof compileInhibitRules>;
  muter: Muter;
  externalURL: string;
  port: PipelinePort;
  /** The engine's active alerts (sources of inhibition). */
  activeAlerts: () => Iterable<Alert>;
  logger: Logger;
}

/** Groups taken out and judged, waiting to be committed (see Pipeline.prepare). */
export interface Batch {
  flushes: Flush[];
  flushed: Set<string>;
  /** Pending rows whose every group is in this batch. */
  done: number[];
  /** Pending rows that existed when the batch was taken. */
  waiting: number[];
  items: CommitItem[];
}

/** How long change events stay sources of inhibition (a delisting mutes its networks). */
const EVENT_MEMORY_MS = 15 * 60_000;

/**
 * Alertmanager's notification pipeline, in process: alerts join groups by route (alerts/groups.ts),
 * and each due group goes, per receiver of its route, through the stages (stage.ts: inhibition,
 * silences, the notification log and send_resolved) before what they let through is committed to
 * the outbox. Time is passed in: the wall time (`now`: what is shown and stored) and the monotonic
 * time (`mono`: what every wait is counted on; a test that gives only `now` has the two the same).
 */
export class Pipeline {
  private readonly aggregator: Aggregator;
  private recentEvents: Alert[] = [];
  /**
   * Alerts written to the store's pending list on arrival, by pending id, with the groups
   * they still wait in: once every one of those groups has been committed, the pending row
   * goes, in the same transaction. A crash before that re-inserts them at the next start.
   */
  private readonly pending = new Map<number, Set<string>>();
  private readonly unchanged: SkipUnchanged;
  /** What a group goes through for each receiver. */
  private readonly stages: Stage;
  /**
   * The log entries this process wrote, by receiver and group: their wall time and the monotonic
   * time they were written at, so a repeat is counted on the monotonic clock (see sinceTold).
   */
  private readonly told = new Map<string, { at: number; mono: number }>();

  constructor(private options: PipelineOptions) {
    this.aggregator = new Aggregator(options.routes);
    this.unchanged = new SkipUnchanged(options.muter);
    this.stages = this.unchanged.around(
      sequence(
        inhibitStage(),
        muteStage(options.muter, options.logger),
        dedupStage((receiver, groupKey) => this.options.port.logEntry(receiver, groupKey)),
        outboxStage(() => this.options.externalURL),
      ),
    );
  }

  /** New routes, receivers or inhibit rules (a reload); groups in flight are kept. */
  reconfigure(options: Partial<Pick<PipelineOptions, 'routes' | 'receivers' | 'inhibitRules' | 'externalURL'>>): void {
    this.options = { ...this.options, ...options };
    this.unchanged.clear();
    if (options.routes) this.aggregator.setRoutes(options.routes);
  }

  /** `pendingIds[i]`, when given, is the store's pending row of `alerts[i]`. */
  insert(alerts: readonly Alert[], now: number, pendingIds?: readonly (number | undefined)[], mono = now): void {
    for (const a of alerts) if (a.event) this.recentEvents.push(a);
    const joined = this.aggregator.insert(alerts, now, mono);
    if (pendingIds === undefined) return;
    joined.forEach((keys, i) => {
      const id = pendingIds[i];
      if (id !== undefined) this.pending.set(id, new Set(keys));
    });
  }

  /** When the next group is due (monotonic ms). */
  nextDue(): number | undefined {
    return this.aggregator.nextDue();
  }

  /** Flushes the groups due at `mono`; returns how many deliveries were committed. */
  tick(now: number, mono = now): number {
    const batch = this.prepare(now, mono);
    return batch === undefined ? 0 : this.commit(batch, now, mono);
  }

  /** Takes the due groups out and judges them; nothing is committed yet (see commit). */
  private prepare(now: number, mono: number): Batch | undefined {
    this.recentEvents = this.recentEvents.filter((e) => now - (e.startsAt ?? 0) < EVENT_MEMORY_MS);
    const flushes = this.aggregator.due(mono);
    if (flushes.length === 0) return undefined;
    const limit = 2 * this.aggregator.size() * Math.max(1, this.options.receivers.size);
    this.unchanged.prune(limit, (group) => this.aggregator.has(group));
    if (this.told.size > limit) for (const k of this.told.keys()) if (!this.aggregator.has(k.slice(k.indexOf('\u0000') + 1))) this.told.delete(k);
    const flushed = new Set(flushes.map((f) => f.key));
    const done: number[] = [];
    for (const [id, keys] of this.pending) if ([...keys].every((k) => flushed.has(k))) done.push(id);
    const waiting = [...this.pending.keys()];
    // One index of the sources per flush: judging an alert is then a lookup, not a scan.
    const sources = new InhibitionIndex([...this.options.activeAlerts(), ...this.recentEvents], this.options.inhibitRules);
    const items: CommitItem[] = [];
    const toldAgo = (receiver: string, groupKey: string, entry: LogEntry): number | undefined => {
      const t = this.told.get(`${receiver}\u0000${groupKey}`);
      return t !== undefined && t.at === entry.at ? Math.max(0, mono - t.mono) : undefined;
    };
    for (const group of flushes) items.push(...fanOut(this.stages, { group, now, sources, toldAgo }, this.options.receivers));
    return { flushes, flushed, done, waiting, items };
  }

  /** Commits what prepare() judged; if that fails, the groups come back and the error is thrown. */
  private commit(batch: Batch, now: number, mono: number): number {
    const { flushes, flushed, done, waiting, items } = batch;
    if (items.length > 0 || done.length > 0) {
      try {
        this.options.port.commit(items, done);
      } catch (err) {
        // Not durable, so not sent: the groups come back and are tried at the next tick.
        for (const flush of flushes) this.aggregator.insert(flush.alerts, now, mono);
        throw err;
      }
    }
    for (const i of items) {
      const key = `${i.receiver}\u0000${i.groupKey}`;
      if (i.entry === undefined) this.told.delete(key);
      else if (i.entry.at === now) this.told.set(key, { at: now, mono });
    }
    for (const id of done) this.pending.delete(id);
    // Only alerts that were waiting when the groups were taken out were in those flushes.
    for (const id of waiting) {
      const keys = this.pending.get(id);
      if (keys !== undefined) for (const k of flushed) keys.delete(k);
    }
    return items.filter((i) => i.delivery !== undefined).length;
  }
}
