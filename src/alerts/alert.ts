import { createHash } from 'node:crypto';

export type AlertStatus = 'pending' | 'firing' | 'resolved';

/** One alert: a rule's condition for one thing (or one change event), through its lifecycle. */
export interface Alert {
  /** Stable identity from the labels (and, for an event, its time), like Alertmanager's. */
  fingerprint: string;
  ruleId: string;
  entity: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  status: AlertStatus;
  /** When the condition began to hold. */
  activeAt: number;
  /** When it began firing (null while pending). */
  startsAt: number | null;
  /** When it resolved (null while active, and for events). */
  endsAt: number | null;
  /** Last evaluation at which the condition held (for keep_firing_for). */
  lastActiveAt: number;
  lastNotifiedAt: number | null;
  value: number | null;
  /** A change event: fires once and is never "resolved". */
  event: boolean;
  /**
   * Wall minus monotonic ms when the alert began, in the process that saw it begin: its later
   * times are read on that timeline (monotonic + clockOffset), so `endsAt - startsAt`, `for` and
   * keep_firing_for are monotonic durations, untouched by a step of the wall clock. Never stored:
   * a monotonic reading means nothing to another process (see storedAlert).
   */
  clockOffset?: number;
}

/** An alert as the store keeps it: without its clock offset (alert.ts clockOffset). */
export function storedAlert(a: Alert): Alert {
  if (a.clockOffset === undefined) return a;
  const { clockOffset: _, ...rest } = a;
  return rest;
}

/** sha256 of the sorted label pairs (plus extra parts), 16 hex digits: stable across restarts. */
export function fingerprint(labels: Readonly<Record<string, string>>, ...extra: string[]): string {
  const h = createHash('sha256');
  for (const k of Object.keys(labels).sort()) h.update(`${k}\u00ff${labels[k]}\u00ff`);
  for (const e of extra) h.update(`\u00fe${e}`);
  return h.digest('hex').slice(0, 16);
}
