import { compileMatcher, matchesAll } from '../rules/match';
import type { Matcher } from '../rules/model';

/** Timers and grouping of one route (the notify defaults where the route does not say). */
export interface RouteSpec {
  /** Position in notify.routes, or -1 for the root route. */
  index: number;
  match: Matcher[];
  receivers: string[];
  continue: boolean;
  groupBy: string[];
  groupWaitMs: number;
  groupIntervalMs: number;
  repeatIntervalMs: number;
}

export interface RouteInput {
  match: Record<string, string>;
  receivers: string[];
  continue: boolean;
  group_by?: string[] | undefined;
  group_wait?: number | undefined;
  group_interval?: number | undefined;
  repeat_interval?: number | undefined;
}

export interface RouteDefaults {
  receivers: string[];
  group_by: string[];
  group_wait: number;
  group_interval: number;
  repeat_interval: number;
}

export function compileRoutes(routes: readonly RouteInput[], defaults: RouteDefaults): { routes: RouteSpec[]; root: RouteSpec } {
  const root: RouteSpec = {
    index: -1,
    match: [],
    receivers: defaults.receivers,
    continue: false,
    groupBy: defaults.group_by,
    groupWaitMs: defaults.group_wait,
    groupIntervalMs: defaults.group_interval,
    repeatIntervalMs: defaults.repeat_interval,
  };
  return {
    root,
    routes: routes.map((r, index) => ({
      index,
      match: Object.entries(r.match).map(([label, pattern]) => compileMatcher(label, pattern)),
      receivers: r.receivers,
      continue: r.continue,
      groupBy: r.group_by ?? defaults.group_by,
      groupWaitMs: r.group_wait ?? defaults.group_wait,
      groupIntervalMs: r.group_interval ?? defaults.group_interval,
      repeatIntervalMs: r.repeat_interval ?? defaults.repeat_interval,
    })),
  };
}

/**
 * The routes an alert takes, as in Alertmanager: the first matching route, and further ones
 * while each matching route says `continue`. An alert that matches no route takes the root
 * route (every receiver), so no alert is dropped by a gap in the routes.
 */
export function routesFor(labels: Readonly<Record<string, string>>, compiled: { routes: readonly RouteSpec[]; root: RouteSpec }): RouteSpec[] {
  const out: RouteSpec[] = [];
  for (const r of compiled.routes) {
    if (!matchesAll(r.match, labels)) continue;
    out.push(r);
    if (!r.continue) break;
  }
  return out.length > 0 ? out : [compiled.root];
}

/** The labels an alert is grouped by on a route (`...` = all of them). */
export function groupLabels(labels: Readonly<Record<string, string>>, groupBy: readonly string[]): Record<string, string> {
  if (groupBy.includes('...')) return { ...labels };
  const out: Record<string, string> = {};
  for (const k of groupBy) {
    const v = labels[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}
