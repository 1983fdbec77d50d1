/**
 * The alert lifecycle, pure: pending -> firing (after `for`) -> resolved (after
 * `keep_firing_for`), a repeat every `repeat_interval`, and change events that fire once. The
 * active alerts are a value (ActiveAlerts: by exchange, rule and entity); a decision works on an
 * AlertsDraft over them, which copies only what it changes, and records each transition and
 * what the store must write.
 *
 * Time: `now` is the wall clock, and `mono`, when the caller has one, the monotonic clock read
 * with it. An alert that began in this process measures its durations (`for`, keep_firing_for,
 * repeat_interval, endsAt - startsAt) on the monotonic clock (Alert.clockOffset), so a step of the
 * wall clock neither holds it back nor makes its outage negative or an hour long. One restored
 * from the store has only wall times: a time of it ahead of `now` counts as just now, and its
 * endsAt is never before its startsAt (clamped, and said: `clamped`).
 */
import type { Instance } from '../rules/instance';
import type { Rule } from '../rules/model';
import { fingerprint, type Alert } from './alert';
import { annotate } from './annotations';

/** One rule's active alerts at one exchange, by entity. */
export type RuleAlerts = ReadonlyMap<string, Alert>;
/** One exchange's active alerts, by rule id. */
export type ExchangeAlerts = ReadonlyMap<string, RuleAlerts>;
/** Every active alert (pending or firing), by the alert's `exchange` label, rule id and entity. */
export type ActiveAlerts = ReadonlyMap<string, ExchangeAlerts>;

/** What became of an alert, in decision order. */
export interface Transition {
  /**
   * `pending`: its condition began to hold, it waits for `for`; `firing`: it began firing;
   * `repeat`: it fires still and repeat_interval passed; `resolved`: it stopped firing;
   * `dropped`: a pending alert whose condition stopped holding (never told); `event`: a change
   * event, which fires once and is not kept.
   */
  readonly to: 'pending' | 'firing' | 'repeat' | 'resolved' | 'dropped' | 'event';
  readonly alert: Alert;
}

/** Whether a transition is told to the receivers. */
export function told(t: Transition): boolean {
  return t.to === 'firing' || t.to === 'repeat' || t.to === 'resolved' || t.to === 'event';
}

const NONE: ReadonlyMap<string, never> = new Map<string, never>();

/** The active alerts as a list (for a store, a view, a restart). */
export function* alertsOf(active: ActiveAlerts): Generator<Alert> {
  for (const rules of active.values()) for (const alerts of rules.values()) yield* alerts.values();
}

/** Active alerts from a list (as the store returns them): each under its `exchange` label, rule and entity. */
export function activeAlerts(alerts: Iterable<Alert>): ActiveAlerts {
  const draft = new AlertsDraft(NONE);
  for (const a of alerts) draft.put(a.labels.exchange ?? '', a.ruleId, a.entity, a);
  return draft.result();
}

/**
 * A working copy of the active alerts for one decision: reads see what was put, writes copy
 * the maps on the way (an exchange's, a rule's) once, and what changed is kept for the store.
 */
export class AlertsDraft {
  private readonly exchanges = new Map<string, Map<string, RuleAlerts>>();
  /** Alerts written (new objects), by fingerprint: what the store must write. */
  private readonly written = new Map<string, Alert>();
  /** Fingerprints of alerts no longer active: what the store must delete. */
  private readonly deleted = new Set<string>();
  readonly transitions: Transition[] = [];
  /** The rule maps this draft made (and may change); the others are the base's. */
  private readonly owned = new Set<RuleAlerts>();
  /** Resolved alerts whose end by the wall clock came before their start (the clock set back): ended at their start. */
  readonly clamped: Alert[] = [];

  constructor(
    private readonly base: ActiveAlerts,
    /** The monotonic clock, read with every `now` this draft is given; none (a replay, a test): wall times only. */
    private readonly mono?: number,
  ) {}

  /** `now` on an alert's own timeline: monotonic when it began in this process (Alert.clockOffset), else the wall clock. */
  private at(a: Alert, now: number): number {
    return a.clockOffset !== undefined && this.mono !== undefined ? this.mono + a.clockOffset : now;
  }

  /** One rule's alerts at one exchange as they stand in this draft. */
  rule(exchange: string, ruleId: string): RuleAlerts {
    return this.rules(exchange).get(ruleId) ?? NONE;
  }

  /** The rule ids with alerts at one exchange. */
  ruleIds(exchange: string): string[] {
    return [...this.rules(exchange).keys()];
  }

  /** The rule's map in this draft, copied from the base the first time it is changed. */
  private mine(rules: Map<string, RuleAlerts>, ruleId: string): Map<string, Alert> {
    const had = rules.get(ruleId);
    if (had !== undefined && this.owned.has(had)) return had as Map<string, Alert>;
    const copy = new Map(had ?? NONE);
    this.owned.add(copy);
    rules.set(ruleId, copy);
    return copy;
  }

  private rules(exchange: string): ExchangeAlerts {
    return this.exchanges.get(exchange) ?? this.base.get(exchange) ?? NONE;
  }

  /** Sets (an alert) or clears (undefined) one entity's alert. */
  put(exchange: string, ruleId: string, entity: string, alert: Alert | undefined): void {
    let rules = this.exchanges.get(exchange);
    if (rules === undefined) this.exchanges.set(exchange, (rules = new Map(this.base.get(exchange) ?? NONE)));
    const alerts = this.mine(rules, ruleId);
    const old = alerts.get(entity);
    if (alert === undefined) {
      alerts.delete(entity);
      if (alerts.size === 0) rules.delete(ruleId);
      if (old !== undefined) {
        this.written.delete(old.fingerprint);
        this.deleted.add(old.fingerprint);
      }
      return;
    }
    alerts.set(entity, alert);
    if (old !== undefined && old.fingerprint !== alert.fingerprint) this.deleted.add(old.fingerprint);
    this.deleted.delete(alert.fingerprint);
    this.written.set(alert.fingerprint, alert);
  }

  /** The active alerts after this decision (the base itself when nothing changed). */
  result(): ActiveAlerts {
    if (this.exchanges.size === 0) return this.base;
    const out = new Map(this.base);
    for (const [exchange, rules] of this.exchanges) {
      if (rules.size === 0) out.delete(exchange);
      else out.set(exchange, rules);
    }
    return out;
  }

  /** What the store must write: alerts set (new objects) and deleted (fingerprints). */
  writes(): { set: Alert[]; removed: string[] } {
    return { set: [...this.written.values()], removed: [...this.deleted] };
  }

  /**
   * What one evaluation of `rule` at `exchange` says: `holding` are its instances that hold
   * now; the rule's other alerts there stop holding (a firing one resolves once
   * keep_firing_for has passed, a pending one is dropped). An instance or alert `held` (its
   * thing flaps) stays exactly as it was: none begins, none moves, none ends.
   */
  judge(exchange: string, rule: Rule, holding: readonly Instance[], now: number, held?: (labels: Readonly<Record<string, string>>) => boolean): void {
    const before = this.rule(exchange, rule.id);
    const seen = new Set<string>();
    for (const inst of holding) {
      seen.add(inst.entity);
      const existing = before.get(inst.entity);
      if (held?.(inst.labels) === true) continue;
      const annotations = annotate(rule, inst);
      if (existing === undefined) {
        const firing = rule.forMs === 0;
        const alert: Alert = {
          fingerprint: fingerprint(inst.labels),
          ruleId: rule.id,
          entity: inst.entity,
          labels: inst.labels,
          annotations,
          status: firing ? 'firing' : 'pending',
          activeAt: now,
          startsAt: firing ? now : null,
          endsAt: null,
          lastActiveAt: now,
          lastNotifiedAt: firing ? now : null,
          value: inst.value,
          event: false,
          ...(this.mono !== undefined && { clockOffset: now - this.mono }),
        };
        this.put(exchange, rule.id, inst.entity, alert);
        this.transitions.push({ to: alert.status === 'firing' ? 'firing' : 'pending', alert });
        continue;
      }
      // Nothing about it changed: the same object, nothing to write (with 8,000 networks
      // closed, a poll rewrote 8,000 alerts otherwise).
      const t = this.at(existing, now);
      if (unchanged(existing, inst, annotations, rule, t)) continue;
      this.advance(exchange, rule, { ...existing, annotations, labels: inst.labels, lastActiveAt: t, value: inst.value }, now);
    }
    for (const [entity, a] of before) if (!seen.has(entity) && held?.(a.labels) !== true) this.stop(exchange, rule, entity, a, now);
  }

  /**
   * Time passing for a rule whose instances are those of its last evaluation (its part of the
   * snapshot did not change, and it reads nothing else): each of its alerts at `exchange`
   * holds still, so only `for` and repeat_interval can move it. For rules without
   * keep_firing_for (whose alerts all hold: those that stopped holding resolved at once).
   */
  carry(exchange: string, rule: Rule, now: number): void {
    for (const a of this.rule(exchange, rule.id).values()) {
      const t = this.at(a, now);
      if (a.status === 'pending' ? since(a.activeAt, t) >= rule.forMs : repeatDue(rule, a, t)) this.advance(exchange, rule, { ...a, lastActiveAt: t }, now);
    }
  }

  /** Every alert of a rule at an exchange stops holding (a rule that is gone resolves them at once). */
  end(exchange: string, ruleId: string, now: number): void {
    for (const [entity, a] of this.rule(exchange, ruleId)) this.stop(exchange, undefined, entity, a, now);
  }

  /** A change event: fires once (told), never kept. */
  event(inst: Instance, now: number): void {
    const at = typeof inst.fields.at === 'number' ? inst.fields.at : now;
    const alert: Alert = {
      fingerprint: fingerprint(inst.labels, String(at)),
      ruleId: inst.rule.id,
      entity: inst.entity,
      labels: inst.labels,
      annotations: annotate(inst.rule, inst),
      status: 'firing',
      activeAt: at,
      startsAt: at,
      endsAt: null,
      lastActiveAt: at,
      lastNotifiedAt: now,
      value: null,
      event: true,
    };
    this.transitions.push({ to: 'event', alert });
  }

  /** An alert that holds, made `next`: it begins firing once `for` has passed, or repeats when due. */
  private advance(exchange: string, rule: Rule, next: Alert, now: number): void {
    let to: Transition['to'] | undefined;
    const t = this.at(next, now);
    if (next.status === 'pending' && since(next.activeAt, t) >= rule.forMs) {
      next.status = 'firing';
      next.startsAt = t;
      next.lastNotifiedAt = t;
      to = 'firing';
    } else if (next.status === 'firing' && repeatDue(rule, next, t)) {
      next.lastNotifiedAt = t;
      to = 'repeat';
    }
    this.put(exchange, rule.id, next.entity, next);
    if (to !== undefined) this.transitions.push({ to, alert: next });
  }

  /** An alert whose condition no longer holds (`rule` undefined: its rule is gone, nothing keeps it firing). */
  private stop(exchange: string, rule: Rule | undefined, entity: string, a: Alert, now: number): void {
    if (a.status === 'firing') {
      const keep = rule?.keepFiringForMs ?? 0;
      const t = this.at(a, now);
      if (keep > 0 && since(a.lastActiveAt, t) < keep) return;
      this.put(exchange, a.ruleId, entity, undefined);
      const start = a.startsAt ?? a.activeAt;
      const resolved: Alert = { ...a, status: 'resolved', endsAt: Math.max(t, start), lastNotifiedAt: t };
      if (t < start) this.clamped.push(resolved);
      this.transitions.push({ to: 'resolved', alert: resolved });
      return;
    }
    this.put(exchange, a.ruleId, entity, undefined);
    this.transitions.push({ to: 'dropped', alert: a });
  }
}

/**
 * Whether an active alert stays as it is: same labels, annotations and value, no transition
 * or repeat due, and a rule without keep_firing_for (the only reader of lastActiveAt).
 */
function unchanged(a: Alert, inst: Instance, annotations: Record<string, string>, rule: Rule, now: number): boolean {
  if (rule.keepFiringForMs > 0 || a.value !== inst.value) return false;
  if (a.status === 'pending' ? since(a.activeAt, now) >= rule.forMs : repeatDue(rule, a, now)) return false;
  return sameRecord(a.labels, inst.labels) && sameRecord(a.annotations, annotations);
}

function sameRecord(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

function repeatDue(rule: Rule, a: Alert, now: number): boolean {
  return rule.repeatIntervalMs !== undefined && rule.repeatIntervalMs > 0 && a.lastNotifiedAt !== null && since(a.lastNotifiedAt, now) >= rule.repeatIntervalMs;
}

/** How long ago an alert's time `at` was, at `now` on its timeline: never negative (a stored time ahead of now is just now). */
function since(at: number, now: number): number {
  return Math.max(0, now - at);
}
