import type { Evaluation, Instance } from '../rules/evaluate';
import type { Rule } from '../rules/model';
import { fingerprint, type Alert } from './alert';
import { annotate } from './annotations';

/** What an evaluation speaks for: one exchange, and the rules whose alerts it re-judges. */
export interface Scope {
  exchange: string;
  /** Rules evaluated this time, by id: their alerts not seen active are no longer active. */
  rules: ReadonlyMap<string, Pick<Rule, 'keepFiringForMs'>>;
  /** Every rule that exists: alerts of a rule that no longer exists resolve. */
  known: ReadonlySet<string>;
}

export interface Advance {
  /** Alerts that became active or changed (new objects; an unchanged alert is not here). */
  set: Alert[];
  /** Fingerprints of the alerts no longer active. */
  removed: string[];
  /** What must be told: alerts that began firing, repeats, resolutions, change events. */
  notify: Alert[];
  /** Fingerprints of the alerts found active (for `alsoSeen` of a later part). */
  seen: Set<string>;
}

/** Key of an alert within its rule. */
function slot(ruleId: string, entity: string): string {
  return `${ruleId}\u0001${entity}`;
}

/**
 * The active alerts (pending and firing), by fingerprint and by rule and entity. `advance`
 * reads it and returns what changed; `apply` applies that in place. A storm's 8,000 alerts
 * judged in parts of 1,000 once copied and re-indexed all 16,000 active alerts per part.
 */
export class ActiveAlerts {
  private readonly byFingerprint = new Map<string, Alert>();
  private readonly bySlot = new Map<string, Alert>();
  /** By exchange label, then fingerprint: what one exchange's state write reads. */
  private readonly byExchange = new Map<string, Map<string, Alert>>();
  /** Firing alerts by alertname and severity, kept as alerts come and go (the spotwatch_alerts_firing gauge). */
  private readonly firingBy = new Map<string, FiringCount>();
  /** Per rule, a count of the times one of its entities became active or stopped being so (see activeVersion). */
  private readonly versions = new Map<string, number>();

  constructor(alerts: Iterable<Alert> = []) {
    for (const a of alerts) this.put(a);
  }

  get size(): number {
    return this.byFingerprint.size;
  }

  get(fingerprint: string): Alert | undefined {
    return this.byFingerprint.get(fingerprint);
  }

  values(): IterableIterator<Alert> {
    return this.byFingerprint.values();
  }

  /** The active alert of a rule for an entity. */
  at(ruleId: string, entity: string): Alert | undefined {
    return this.bySlot.get(slot(ruleId, entity));
  }

  isActive(ruleId: string, entity: string): boolean {
    return this.bySlot.has(slot(ruleId, entity));
  }

  /**
   * Changes whenever an entity of the rule becomes active or stops being so: while it stays the
   * same, isActive answers for the rule as it did (an evaluation that read it can be reused).
   */
  activeVersion(ruleId: string): number {
    return this.versions.get(ruleId) ?? 0;
  }

  asMap(): ReadonlyMap<string, Alert> {
    return this.byFingerprint;
  }

  /** The active alerts of one exchange, by fingerprint. */
  ofExchange(exchange: string): ReadonlyMap<string, Alert> {
    return this.byExchange.get(exchange) ?? EMPTY;
  }

  /** How many alerts fire, by alertname and severity (entries at 0 once their last alert stopped firing). */
  firing(): Iterable<Readonly<FiringCount>> {
    return this.firingBy.values();
  }

  /** Applies what `advance` decided. */
  apply(result: Pick<Advance, 'set' | 'removed'>): void {
    for (const fp of result.removed) {
      const a = this.byFingerprint.get(fp);
      if (a === undefined) continue;
      this.byFingerprint.delete(fp);
      const key = slot(a.ruleId, a.entity);
      if (this.bySlot.get(key) === a) this.dropSlot(key, a.ruleId);
      this.unindex(a);
    }
    for (const a of result.set) this.put(a);
  }

  private put(a: Alert): void {
    const old = this.byFingerprint.get(a.fingerprint);
    const key = slot(a.ruleId, a.entity);
    if (old !== undefined) {
      const oldKey = slot(old.ruleId, old.entity);
      // The same slot taken by the alert's new state: still active, no new version.
      if (this.bySlot.get(oldKey) === old && oldKey !== key) this.dropSlot(oldKey, old.ruleId);
      this.unindex(old);
    }
    this.byFingerprint.set(a.fingerprint, a);
    if (!this.bySlot.has(key)) this.bump(a.ruleId);
    this.bySlot.set(key, a);
    const exchange = a.labels.exchange ?? '';
    let mine = this.byExchange.get(exchange);
    if (mine === undefined) this.byExchange.set(exchange, (mine = new Map()));
    mine.set(a.fingerprint, a);
    if (a.status === 'firing') this.count(a, 1);
  }

  private dropSlot(key: string, ruleId: string): void {
    this.bySlot.delete(key);
    this.bump(ruleId);
  }

  private bump(ruleId: string): void {
    this.versions.set(ruleId, (this.versions.get(ruleId) ?? 0) + 1);
  }

  private unindex(a: Alert): void {
    const exchange = a.labels.exchange ?? '';
    const mine = this.byExchange.get(exchange);
    if (mine?.get(a.fingerprint) === a) {
      mine.delete(a.fingerprint);
      if (mine.size === 0) this.byExchange.delete(exchange);
    }
    if (a.status === 'firing') this.count(a, -1);
  }

  private count(a: Alert, by: 1 | -1): void {
    const alertname = a.labels.alertname ?? '';
    const severity = a.labels.severity ?? '';
    const key = `${alertname}\u0000${severity}`;
    let entry = this.firingBy.get(key);
    if (entry === undefined) this.firingBy.set(key, (entry = { alertname, severity, n: 0 }));
    entry.n += by;
  }
}

export interface FiringCount {
  alertname: string;
  severity: string;
  n: number;
}

const EMPTY: ReadonlyMap<string, Alert> = new Map();

export interface AdvanceOptions {
  /** Fingerprints earlier parts of the same evaluation found active. */
  alsoSeen?: ReadonlySet<string>;
  /**
   * Whether alerts not seen active resolve (default true). Every part of an evaluation judged
   * in parts but the last passes false: only the last knows what was not seen.
   */
  resolve?: boolean;
}

/**
 * The alert lifecycle, pure: pending -> firing (after `for`) -> resolved (after
 * `keep_firing_for`), a repeat every `repeat_interval`, and change events that fire once.
 * Reads the active alerts and returns what changed (apply it with `ActiveAlerts.apply`). An
 * evaluation may be judged in parts (the engine does, to give the event loop turns): every
 * part but the last with `resolve: false`, and the last with `alsoSeen`, the alerts the
 * earlier parts found active.
 */
export function advance(prev: ActiveAlerts, evaluation: Evaluation, scope: Scope, now: number, options: AdvanceOptions = {}): Advance {
  const set: Alert[] = [];
  const removed: string[] = [];
  const notify: Alert[] = [];
  const seen = new Set<string>();

  for (const inst of evaluation.active) {
    const rule = inst.rule;
    const existing = prev.at(rule.id, inst.entity);
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
      };
      set.push(alert);
      seen.add(alert.fingerprint);
      if (firing) notify.push(alert);
      continue;
    }
    seen.add(existing.fingerprint);
    if (unchanged(existing, inst, annotations, rule, now)) continue; // the same object: nothing to write
    const next: Alert = { ...existing, annotations, labels: inst.labels, lastActiveAt: now, value: inst.value };
    if (next.status === 'pending' && now - next.activeAt >= rule.forMs) {
      next.status = 'firing';
      next.startsAt = now;
      next.lastNotifiedAt = now;
      notify.push(next);
    } else if (next.status === 'firing' && repeatDue(rule, next, now)) {
      next.lastNotifiedAt = now;
      notify.push(next);
    }
    set.push(next);
  }

  if (options.resolve !== false) {
    for (const a of prev.values()) {
      if (seen.has(a.fingerprint) || options.alsoSeen?.has(a.fingerprint) || a.labels.exchange !== scope.exchange) continue;
      const gone = !scope.known.has(a.ruleId);
      if (!gone && !scope.rules.has(a.ruleId)) continue;
      if (a.status === 'firing') {
        const keep = scope.rules.get(a.ruleId)?.keepFiringForMs ?? 0;
        if (!gone && keep > 0 && now - a.lastActiveAt < keep) continue;
        notify.push({ ...a, status: 'resolved', endsAt: now, lastNotifiedAt: now });
      }
      removed.push(a.fingerprint);
    }
  }

  for (const inst of evaluation.events) notify.push(eventAlert(inst, now));
  return { set, removed, notify, seen };
}

/**
 * Whether an active alert stays as it is: same labels, annotations and value, no transition
 * or repeat due, and a rule without keep_firing_for (the only reader of lastActiveAt). Then
 * the alert keeps its identity, and a poll that changes nothing writes nothing: with 8,000
 * networks closed, every poll rewrote 8,000 alerts.
 */
function unchanged(a: Alert, inst: Instance, annotations: Record<string, string>, rule: Rule, now: number): boolean {
  if (rule.keepFiringForMs > 0 || a.value !== inst.value) return false;
  if (a.status === 'pending' ? now - a.activeAt >= rule.forMs : repeatDue(rule, a, now)) return false;
  return sameRecord(a.labels, inst.labels) && sameRecord(a.annotations, annotations);
}

function sameRecord(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

function repeatDue(rule: Rule, a: Alert, now: number): boolean {
  return rule.repeatIntervalMs !== undefined && rule.repeatIntervalMs > 0 && a.lastNotifiedAt !== null && now - a.lastNotifiedAt >= rule.repeatIntervalMs;
}

function eventAlert(inst: Instance, now: number): Alert {
  const at = typeof inst.fields.at === 'number' ? inst.fields.at : now;
  return {
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
}
