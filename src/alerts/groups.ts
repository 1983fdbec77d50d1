import type { Alert } from './alert';
import { groupLabels, routesFor, type CompiledRoutes, type RouteSpec } from './route';

/** Alertmanager's group key form: `{}:{label="value",...}`. */
export function groupKeyOf(route: string, labels: Record<string, string>): string {
  const pairs = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`);
  return `${route}:{${pairs.join(',')}}`;
}

/** What tells an alert's group on a route apart: the route and its group_by values (all the labels for `...`). */
function valuesKey(route: RouteSpec, labels: Readonly<Record<string, string>>): string {
  if (route.groupBy.includes('...')) return groupKeyOf(route.id, { ...labels });
  let key = route.id;
  for (const k of route.groupBy) {
    const v = labels[k];
    key += v === undefined ? '\u0000\u0001' : `\u0000\u0002${v}`;
  }
  return key;
}

/** A group's alerts handed to the notification stages. */
export interface Flush {
  key: string;
  route: RouteSpec;
  labels: Record<string, string>;
  /** Every alert currently in the group: firing ones, and resolved ones not yet told. */
  alerts: Alert[];
  /** Changes whenever an alert joins, changes or leaves the group: the same version, the same alerts. */
  version: number;
}

interface Group {
  key: string;
  route: RouteSpec;
  labels: Record<string, string>;
  alerts: Map<string, Alert>;
  /** Monotonic ms. */
  nextFlushAt: number;
  version: number;
}

/**
 * An alert that reaches the groups within this long of its decision counts group_wait from
 * the decision; one decided longer ago (restored at a start) waits a whole group_wait.
 */
export const DECIDED_RECENTLY_MS = 60_000;

/**
 * When a new group is first due, on the monotonic clock (`mono`, read with `now`): group_wait after
 * its first alert was decided (the poll that saw the change: the alert's lastNotifiedAt, a wall
 * time), not after it reached the groups. In a storm, writing the state and admitting 16,000
 * alerts takes a second or more, which group_wait then added to — and when that took longer than
 * group_wait itself, the alert was taken for an old one and waited a whole group_wait more. An
 * alert decided more than DECIDED_RECENTLY_MS ago (one restored at a start), or "after" now (the
 * wall clock was set back since), waits a whole group_wait from now.
 */
export function firstFlushAt(a: Alert, now: number, groupWaitMs: number, mono = now): number {
  const age = now - (a.lastNotifiedAt ?? now);
  return age >= 0 && age < Math.max(groupWaitMs, DECIDED_RECENTLY_MS) ? mono + groupWaitMs - age : mono + groupWaitMs;
}

/**
 * Aggregation groups, as in Alertmanager: an alert joins one group per route it takes
 * (keyed by the route and its group_by labels). A new group is flushed after group_wait,
 * then every group_interval while it has alerts (and one more, empty); each flush carries every
 * alert in the group.
 * Resolved alerts and change events leave the group once flushed. Pure: time is passed in, and
 * every wait is counted on the monotonic clock (`mono`; a test that gives only `now` has the two
 * the same): a wall clock set back an hour does not hold a group back an hour.
 */
export class Aggregator {
  private readonly groups = new Map<string, Group>();
  /** Versions are never reused, not even by a group that goes and comes back. */
  private versions = 0;
  /**
   * The groups by their route and group_by values, joined as they come: finding an alert's group
   * costs a string of two or three values, not the group key (sorted and quoted), which a
   * storm's 16,000 alerts paid 15-30 ms for.
   */
  private readonly byValues = new Map<string, Group>();

  constructor(private routes: CompiledRoutes) {}

  setRoutes(routes: CompiledRoutes): void {
    this.routes = routes;
  }

  /** Puts each alert in its groups (at wall `now`, monotonic `mono`); returns, per alert, the keys of the groups it joined. */
  insert(alerts: readonly Alert[], now: number, mono = now): string[][] {
    const joined: string[][] = [];
    for (const a of alerts) {
      const keys: string[] = [];
      joined.push(keys);
      for (const route of routesFor(a.labels, this.routes)) {
        const values = valuesKey(route, a.labels);
        let g = this.byValues.get(values);
        if (g === undefined || this.groups.get(g.key) !== g) {
          const labels = groupLabels(a.labels, route.groupBy);
          const key = groupKeyOf(route.id, labels);
          g = this.groups.get(key);
          if (g === undefined) {
            g = { key, route, labels, alerts: new Map(), nextFlushAt: firstFlushAt(a, now, route.groupWaitMs, mono), version: 0 };
            this.groups.set(key, g);
          }
          this.byValues.set(values, g);
        } else if (route.immediate) g.nextFlushAt = Math.min(g.nextFlushAt, mono);
        g.alerts.set(a.fingerprint, a);
        g.version = ++this.versions;
        keys.push(g.key);
      }
    }
    return joined;
  }

  /** When the next group is due (monotonic ms), if any. */
  nextDue(): number | undefined {
    let next: number | undefined;
    for (const g of this.groups.values()) if (next === undefined || g.nextFlushAt < next) next = g.nextFlushAt;
    return next;
  }

  /**
   * The groups due at `now`; their resolved alerts and events are then dropped. A group left
   * empty is kept for one more group_interval, as Alertmanager keeps it: what joins it meanwhile
   * goes at that interval, not after a fresh group_wait (a network flipping at every poll is
   * told once per group_interval, not once per poll). Still empty then, it goes.
   */
  due(mono: number): Flush[] {
    const out: Flush[] = [];
    for (const g of this.groups.values()) {
      if (g.nextFlushAt > mono) continue;
      if (g.alerts.size === 0) {
        this.groups.delete(g.key);
        for (const [values, x] of this.byValues) if (x === g) this.byValues.delete(values);
        continue;
      }
      out.push({ key: g.key, route: g.route, labels: g.labels, alerts: [...g.alerts.values()], version: g.version });
      for (const [fp, a] of g.alerts) if (a.status === 'resolved' || a.event) {
        g.alerts.delete(fp);
        g.version = ++this.versions;
      }
      g.nextFlushAt = mono + g.route.groupIntervalMs;
    }
    return out;
  }

  has(key: string): boolean {
    return this.groups.has(key);
  }

  size(): number {
    return this.groups.size;
  }
}
