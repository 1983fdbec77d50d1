import { compileMatcher, matchesAll } from '../rules/match';
import type { Matcher } from '../rules/model';

/** Timers and grouping of one route (the notify defaults where the route does not say). */
export interface RouteSpec {
  /** Identity of the route in group keys: `{}` for the root, `{}/N` for notify.routes[N]. */
  id: string;
  match: Matcher[];
  receivers: string[];
  continue: boolean;
  groupBy: string[];
  groupWaitMs: number;
  groupIntervalMs: number;
  repeatIntervalMs: number;
  /** A change to an alert is sent at the next tick rather than the next group_interval. */
  immediate?: boolean;
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

/** Routes after compiling: each entry of notify.routes (and the root) may be several parts. */
export interface CompiledRoutes {
  routes: RouteSpec[][];
  root: RouteSpec[];
}

/**
 * Compiles notify.routes. Receivers that want every alert at once and again on an interval
 * (Alertmanager pushes: `direct`, receiver name -> resend interval) get a part of their own in
 * each route that names them: one group per alert, no wait, repeated every resend interval.
 */
export function compileRoutes(routes: readonly RouteInput[], defaults: RouteDefaults, direct: ReadonlyMap<string, number> = new Map()): CompiledRoutes {
  const root: RouteSpec = {
    id: '{}',
    match: [],
    receivers: defaults.receivers,
    continue: false,
    groupBy: defaults.group_by,
    groupWaitMs: defaults.group_wait,
    groupIntervalMs: defaults.group_interval,
    repeatIntervalMs: defaults.repeat_interval,
  };
  const compiled = routes.map(
    (r, index): RouteSpec => ({
      id: `{}/${index}`,
      match: Object.entries(r.match).map(([label, pattern]) => compileMatcher(label, pattern)),
      receivers: r.receivers,
      continue: r.continue,
      groupBy: r.group_by ?? defaults.group_by,
      groupWaitMs: r.group_wait ?? defaults.group_wait,
      groupIntervalMs: r.group_interval ?? defaults.group_interval,
      repeatIntervalMs: r.repeat_interval ?? defaults.repeat_interval,
    }),
  );
  const split = (r: RouteSpec): RouteSpec[] => {
    const parts: RouteSpec[] = [];
    const grouped = r.receivers.filter((n) => !direct.has(n));
    if (grouped.length > 0) parts.push({ ...r, receivers: grouped });
    for (const n of r.receivers) {
      const resend = direct.get(n);
      if (resend !== undefined) parts.push({ ...r, id: `${r.id}/${n}`, receivers: [n], groupBy: ['...'], groupWaitMs: 0, groupIntervalMs: resend, repeatIntervalMs: resend, immediate: true });
    }
    return parts;
  };
  return { routes: compiled.map(split), root: split(root) };
}

/**
 * The route parts an alert takes, as in Alertmanager: the first matching route, and further
 * ones while each matching route says `continue`. An alert that matches no route takes the
 * root route (every receiver), so no alert is dropped by a gap in the routes.
 */
export function routesFor(labels: Readonly<Record<string, string>>, compiled: CompiledRoutes): RouteSpec[] {
  const out: RouteSpec[] = [];
  for (const parts of compiled.routes) {
    const first = parts[0];
    if (first === undefined || !matchesAll(first.match, labels)) continue;
    out.push(...parts);
    if (!first.continue) break;
  }
  return out.length > 0 ? out : compiled.root;
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
