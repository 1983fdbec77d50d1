/**
 * What each receiver makes of an alert's severity (the rule's `severity` label): one table, a row
 * per receiver that has a scale of its own, each row as its service documents its levels. A
 * receiver reads its row with `severityLevel` (a severity), `alertLevel` (an alert: a resolved one
 * has a level of its own) and `groupLevel` (a group: its firing alerts'). Where two services
 * differ (how a severity outside the four ranks, whether `Critical` is `critical`), the
 * difference is a field of the row.
 */
import type { Notification, NotifiedAlert } from '../notifier';

/** The rule severities, most severe first. */
export const SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** One receiver's levels by severity. */
export interface SeverityScale<T> {
  /** A level per severity (the four; a service that names others adds them). */
  readonly bySeverity: Readonly<Record<string, T>>;
  /** The level of a severity `bySeverity` does not name (none included). */
  readonly other: T;
  /** `Critical` read as `critical` (the severity lower-cased before it is looked up). */
  readonly caseless?: boolean;
}

/** A scale for alerts: a resolved alert (a group with none firing) has a level of its own. */
export interface AlertScale<T> extends SeverityScale<T> {
  readonly resolved: T;
  /**
   * A group's level, of its firing alerts' (groupLevel): `highest` (a scale of numbers), the
   * largest of their levels, a severity outside the four ranking as `other` does; `most-severe`,
   * the level of the most severe of the four among them, `other` only when none is one of them.
   */
  readonly group: T extends number ? 'highest' | 'most-severe' : 'most-severe';
}

/** PagerDuty's own severities (Events API v2 `payload.severity`). */
export type PagerDutySeverity = Severity;

/** Rule severities PagerDuty does not name, as the nearest it does. */
const PAGERDUTY_ALIASES: Readonly<Record<string, PagerDutySeverity>> = {
  fatal: 'critical', emergency: 'critical', page: 'critical', high: 'error', major: 'error', err: 'error',
  warn: 'warning', medium: 'warning', minor: 'warning', low: 'info', notice: 'info', informational: 'info', none: 'info',
};

/** Every receiver's scale. */
export const SEVERITY_SCALES = {
  /** The mark a chat message shows (chat-text.ts); a group takes its most severe alert's. */
  mark: { bySeverity: { critical: '🔴', error: '🟠', warning: '🟡', info: '🔵' }, other: '⚪', resolved: '✅', group: 'most-severe' },
  /** Discord's embed colour. */
  discordColour: { bySeverity: { critical: 0xd7263d, error: 0xf46036, warning: 0xf6ae2d, info: 0x3b82f6 }, other: 0x99aab5, resolved: 0x2ba84a, group: 'highest' },
  /** ntfy's priorities (1 min, 2 low, 3 default, 4 high, 5 max/urgent); a group that only resolved wakes no one. */
  ntfy: { bySeverity: { critical: 5, error: 4, warning: 3, info: 2 }, other: 3, resolved: 2, group: 'highest' },
  /**
   * Gotify's priorities as its Android client shows them: 8 and above pops up, 4 to 7 make a
   * sound, 1 to 3 are silent. A resolution is news, not an emergency.
   */
  gotify: { bySeverity: { critical: 8, error: 7, warning: 5, info: 3 }, other: 5, resolved: 2, group: 'highest' },
  /**
   * Pushover's priorities (-2 no notification to 2, an emergency repeated until acknowledged): the
   * defaults of its block's `priorities`, `other_priority` and `resolved_priority`, which a user may set.
   */
  pushover: { bySeverity: { critical: 2, error: 1, warning: 0, info: -1 }, other: 0, resolved: -1, caseless: true, group: 'highest' },
  /** PagerDuty's severities: its own four, the nearest of them for others; anything else is a warning (the rules' default). */
  pagerduty: {
    bySeverity: { critical: 'critical', error: 'error', warning: 'warning', info: 'info', ...PAGERDUTY_ALIASES },
    other: 'warning',
    caseless: true,
  },
} as const satisfies {
  mark: AlertScale<string>;
  discordColour: AlertScale<number>;
  ntfy: AlertScale<number>;
  gotify: AlertScale<number>;
  pushover: AlertScale<number>;
  pagerduty: SeverityScale<PagerDutySeverity>;
};

/** The level of a severity on a scale. */
export function severityLevel<T>(scale: SeverityScale<T>, severity: string | undefined): T {
  const s = key(scale, severity);
  return Object.hasOwn(scale.bySeverity, s) ? (scale.bySeverity[s] as T) : scale.other;
}

/** The level of an alert: its severity's while it fires, the scale's `resolved` once it resolved. */
export function alertLevel<T>(scale: AlertScale<T>, a: NotifiedAlert): T {
  return a.status === 'resolved' ? scale.resolved : severityLevel(scale, a.labels.severity);
}

/** The level of a group: its firing alerts' (AlertScale.group), the scale's `resolved` when none fires. */
export function groupLevel<T>(scale: AlertScale<T>, n: Notification): T {
  const firing = n.alerts.filter((a) => a.status === 'firing');
  if (firing.length === 0) return scale.resolved;
  if (scale.group === 'most-severe') {
    const severities = new Set(firing.map((a) => key(scale, a.labels.severity)));
    const worst = SEVERITIES.find((s) => severities.has(s));
    return worst === undefined ? scale.other : severityLevel(scale, worst);
  }
  // `highest` is a scale of numbers (AlertScale.group).
  return firing.map((a) => severityLevel(scale, a.labels.severity)).reduce((a, b) => ((b as number) > (a as number) ? b : a));
}

/** A severity as the scale looks it up. */
function key(scale: SeverityScale<unknown>, severity: string | undefined): string {
  return scale.caseless === true ? (severity ?? '').toLowerCase() : (severity ?? '');
}
