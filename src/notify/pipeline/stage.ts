/**
 * The notification pipeline's stages, as in Alertmanager's notify package: each stage is one
 * small file, takes a group's alerts for one receiver and returns those that go on (a filter
 * returns fewer), and stages compose in sequence (`sequence`) and side by side, one receiver
 * after another (`fanOut`). What the pipeline runs, in order:
 *   skip-unchanged ( inhibit -> mute -> dedup -> outbox )   per receiver of the group's route,
 * then the outbox is committed (pipeline.ts), and per receiver the retry stage (retry-stage.ts)
 * sends what the outbox holds. Time is passed in; no stage reads the clock.
 */
import type { Alert } from '../../alerts/alert';
import type { LogEntry } from '../../alerts/dedup';
import type { Flush } from '../../alerts/groups';
import type { InhibitionIndex } from '../../alerts/inhibit';
import { wallSince } from '../../lib/time-base';
import type { Delivery } from '../notifier';

/** What a flush hands to the outbox for one receiver and group: a delivery, a log entry, or both. */
export interface CommitItem {
  receiver: string;
  groupKey: string;
  /** The notification to send; undefined when there is nothing to tell (the log still changes). */
  delivery: Delivery | undefined;
  /** What the notification log holds afterwards (undefined: the entry goes). */
  entry: LogEntry | undefined;
  /** JSON.stringify(delivery.notification), once made (see Pipeline.serialize). */
  notificationJson?: string;
  /** The outbox row's body, when the store made it beforehand (off the event loop). */
  row?: string | Buffer;
}

/** One group flushed for one receiver: what every stage reads, and what stages hand on besides the alerts. */
export interface StageContext {
  readonly receiver: string;
  readonly sendResolved: boolean;
  readonly group: Flush;
  readonly now: number;
  /** The firing sources of inhibition at this flush, indexed once for every group. */
  readonly sources: InhibitionIndex;
  /**
   * How long ago (ms) a receiver's log entry of a group was written, on the monotonic clock when
   * this process wrote it (the pipeline remembers); none given, or not written here: see `sinceTold`.
   */
  readonly toldAgo?: (receiver: string, groupKey: string, entry: LogEntry) => number | undefined;
  /** What the notification log says this receiver was last told of the group (read by the dedup stage). */
  told?: LogEntry | undefined;
  /** What the notification log is to hold after this flush (decided by the dedup stage). */
  entry?: LogEntry | undefined;
  /** What goes to the outbox (made by the outbox stage). */
  item?: CommitItem;
}

export interface Stage {
  readonly name: string;
  /** The alerts that go on, or undefined when there is nothing more to do for this group and receiver. */
  exec(ctx: StageContext, alerts: readonly Alert[]): readonly Alert[] | undefined;
}

/** Stages one after the other, each on what the one before let through (Alertmanager's MultiStage). */
export function sequence(...stages: readonly Stage[]): Stage {
  return {
    name: stages.map((s) => s.name).join(' -> '),
    exec(ctx, alerts) {
      let current: readonly Alert[] | undefined = alerts;
      for (const stage of stages) {
        current = stage.exec(ctx, current);
        if (current === undefined) return undefined;
      }
      return current;
    },
  };
}

/** What the fan-out gives each receiver's context besides the receiver (the same for all of them). */
export type FlushOf = Pick<StageContext, 'group' | 'now' | 'sources' | 'toldAgo'>;

/**
 * How long ago the receiver was told what `entry` says, never negative: as the pipeline measured
 * it, or from the entry's wall time, where a time ahead of now (the clock set back since it was
 * written, before a restart) counts as just now.
 */
export function sinceTold(ctx: StageContext, entry: LogEntry): number {
  return ctx.toldAgo?.(ctx.receiver, ctx.group.key, entry) ?? wallSince(entry.at, ctx.now);
}

/**
 * A group through `stage` once per receiver of its route, each on the same alerts with its own
 * context (Alertmanager's fan-out); a receiver no longer configured is skipped. Returns what each
 * receiver hands to the outbox.
 */
export function fanOut(stage: Stage, flush: FlushOf, receivers: ReadonlyMap<string, { sendResolved: boolean }>): CommitItem[] {
  const items: CommitItem[] = [];
  for (const receiver of flush.group.route.receivers) {
    const settings = receivers.get(receiver);
    if (settings === undefined) continue;
    const ctx: StageContext = { ...flush, receiver, sendResolved: settings.sendResolved };
    stage.exec(ctx, flush.group.alerts);
    if (ctx.item !== undefined) items.push(ctx.item);
  }
  return items;
}
