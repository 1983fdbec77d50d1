import type { Alert } from '../alerts/alert';
import { decide, type LogEntry } from '../alerts/dedup';
import { Aggregator, type Flush } from '../alerts/groups';
import { compileInhibitRules, InhibitionIndex } from '../alerts/inhibit';
import type { CompiledRoutes } from '../alerts/route';
import type { Muter } from '../alerts/silence';
import type { Logger } from '../lib/logger';
import { buildDelivery } from './notification';
import type { Delivery } from './notifier';

/** What the pipeline needs from storage: the notification log, and a durable hand-over. */
export interface PipelinePort {
  logEntry(receiver: string, groupKey: string): LogEntry | undefined;
  /**
   * Durably accepts the deliveries and the log entries together (one transaction): once this
   * returns, a delivery is sent even across a crash, and the log says it was told.
   */
  commit(items: readonly { receiver: string; groupKey: string; delivery: Delivery | undefined; entry: LogEntry | undefined; notificationJson?: string }[], donePending: readonly number[]): void;
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

type CommitItem = Parameters<PipelinePort['commit']>[0][number];

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
 * Alertmanager's notification pipeline, in process: alerts join groups by route, and each due
 * group goes through inhibition, silences, send_resolved and the notification log, per
 * receiver, before it is committed to the outbox. Time is passed in.
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
  /** Per receiver and group, what its last flush was judged on (see stage). */
  private readonly staged = new Map<string, { group: string; version: number; sources: string; entry: LogEntry | undefined }>();

  constructor(private options: PipelineOptions) {
    this.aggregator = new Aggregator(options.routes);
  }

  /** New routes, receivers or inhibit rules (a reload); groups in flight are kept. */
  reconfigure(options: Partial<Pick<PipelineOptions, 'routes' | 'receivers' | 'inhibitRules' | 'externalURL'>>): void {
    this.options = { ...this.options, ...options };
    this.staged.clear();
    if (options.routes) this.aggregator.setRoutes(options.routes);
  }

  /** `pendingIds[i]`, when given, is the store's pending row of `alerts[i]`. */
  insert(alerts: readonly Alert[], now: number, pendingIds?: readonly (number | undefined)[]): void {
    for (const a of alerts) if (a.event) this.recentEvents.push(a);
    const joined = this.aggregator.insert(alerts, now);
    if (pendingIds === undefined) return;
    joined.forEach((keys, i) => {
      const id = pendingIds[i];
      if (id !== undefined) this.pending.set(id, new Set(keys));
    });
  }

  nextDue(): number | undefined {
    return this.aggregator.nextDue();
  }

  /**
   * Flushes the groups due at `now` (at most `maxGroups` of them); returns how many deliveries
   * were committed. prepare() and commit() are its two halves, for a caller that gives the
   * event loop a turn between them (a group of 8,000 alerts is a lot to judge, and a 3 MB body
   * to commit).
   */
  tick(now: number, maxGroups?: number): number {
    const batch = this.prepare(now, maxGroups);
    return batch === undefined ? 0 : this.commit(batch, now);
  }

  /** Takes the due groups out and judges them; nothing is committed yet (see commit). */
  prepare(now: number, maxGroups?: number): Batch | undefined {
    this.recentEvents = this.recentEvents.filter((e) => now - (e.startsAt ?? 0) < EVENT_MEMORY_MS);
    const flushes = this.aggregator.due(now, maxGroups);
    if (flushes.length === 0) return undefined;
    if (this.staged.size > 2 * this.aggregator.size() * Math.max(1, this.options.receivers.size)) {
      for (const [k, memo] of this.staged) if (!this.aggregator.has(memo.group)) this.staged.delete(k);
    }
    const flushed = new Set(flushes.map((f) => f.key));
    const done: number[] = [];
    for (const [id, keys] of this.pending) if ([...keys].every((k) => flushed.has(k))) done.push(id);
    // One index of the sources per flush: judging an alert is then a lookup, not a scan.
    const sources = new InhibitionIndex([...this.options.activeAlerts(), ...this.recentEvents], this.options.inhibitRules);
    const items: CommitItem[] = [];
    for (const flush of flushes) for (const receiver of flush.route.receivers) {
      const item = this.stage(flush, receiver, sources, now);
      if (item !== undefined) items.push(item);
    }
    return { flushes, flushed, done, waiting: [...this.pending.keys()], items };
  }

  /**
   * Serializes the notifications of a prepared batch (JSON.stringify of a storm's is 3 MB), for
   * a caller that gives the event loop a turn before commit(); commit() does it otherwise.
   */
  serialize(batch: Batch): void {
    for (const item of batch.items) if (item.delivery !== undefined) item.notificationJson ??= JSON.stringify(item.delivery.notification);
  }

  /** Commits what prepare() judged; if that fails, the groups come back and the error is thrown. */
  commit(batch: Batch, now: number): number {
    const { flushes, flushed, done, waiting, items } = batch;
    if (items.length > 0 || done.length > 0) {
      try {
        this.options.port.commit(items, done);
      } catch (err) {
        // Not durable, so not sent: the groups come back and are tried at the next tick.
        for (const flush of flushes) this.aggregator.insert(flush.alerts, now);
        throw err;
      }
    }
    for (const id of done) this.pending.delete(id);
    // Only alerts that were waiting when the groups were taken out were in those flushes.
    for (const id of waiting) {
      const keys = this.pending.get(id);
      if (keys !== undefined) for (const k of flushed) keys.delete(k);
    }
    return items.filter((i) => i.delivery !== undefined).length;
  }

  private stage(flush: Flush, receiver: string, sources: InhibitionIndex, now: number) {
    const settings = this.options.receivers.get(receiver);
    if (settings === undefined) return undefined;
    // A group that has not changed since its last flush, judged under the same inhibitions and
    // with nothing that could mute, comes to the same decision: no news, unless a repeat is due.
    // Re-deriving 8,000 alerts at every group_interval of a long outage is skipped.
    const memoKey = `${receiver}\u0000${flush.key}`;
    const memo = this.staged.get(memoKey);
    const signature = sources.signature();
    const repeatDue = memo?.entry !== undefined && memo.entry.firing.length > 0 && now - memo.entry.at >= flush.route.repeatIntervalMs;
    if (memo !== undefined && memo.version === flush.version && memo.sources === signature && this.options.muter.idle && !repeatDue) return undefined;
    // Read once: the judgement starts from it, and the memo keeps it when nothing is to be written.
    const before = this.options.port.logEntry(receiver, flush.key);
    const item = this.judge(flush, receiver, settings, sources, before, now);
    this.staged.set(memoKey, { group: flush.key, version: flush.version, sources: signature, entry: item === undefined ? before : item.entry });
    return item;
  }

  private judge(flush: Flush, receiver: string, settings: { sendResolved: boolean }, sources: InhibitionIndex, before: LogEntry | undefined, now: number) {
    const alerts = flush.alerts.filter((a) => {
      if (sources.inhibits(a)) return false;
      const muted = this.options.muter.mutedBy(a.labels, now);
      if (muted !== undefined) this.options.logger.debug({ fingerprint: a.fingerprint, receiver, muted }, 'alert muted');
      return muted === undefined;
    });
    const firing = alerts.filter((a) => a.status === 'firing').map((a) => a.fingerprint);
    const resolved = alerts.filter((a) => a.status === 'resolved').map((a) => a.fingerprint);
    const decision = decide(before, firing, resolved, settings.sendResolved, flush.route.repeatIntervalMs, now);
    if (!decision.send && sameEntry(before, decision.entry)) return undefined;
    const told = settings.sendResolved ? alerts : alerts.filter((a) => a.status === 'firing');
    const delivery = decision.send && told.length > 0 ? buildDelivery(receiver, flush.labels, told, this.options.externalURL, now, flush.key) : undefined;
    return { receiver, groupKey: flush.key, delivery, entry: decision.entry };
  }
}

function sameEntry(a: LogEntry | undefined, b: LogEntry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.at === b.at && sameList(a.firing, b.firing) && sameList(a.resolved, b.resolved);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
