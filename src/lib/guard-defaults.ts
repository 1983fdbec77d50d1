/**
 * The guard's defaults (src/snapshot/guard.ts), the one place they are written: the config's
 * defaults and the guard both read them, and neither of those folders may import the other.
 */
export const DEFAULT_GUARD = {
  /** A list shrinking by more than a fifth at once is suspect... */
  maxShrink: 0.2,
  /** ...until it has persisted for 5 polls... */
  confirmPolls: 5,
  /** ...and 2 minutes. */
  confirmMs: 120_000,
} as const;

/**
 * Flap detection's defaults (src/rules/flapping.ts), Nagios' own: 21 states looked back over,
 * flapping from 20 % state change, settled under 5 %. Alternating answers flap after 4 changes;
 * one closure, or every network closing at once, is one change (about 6 %).
 */
export const DEFAULT_FLAPPING = {
  enabled: true,
  window: 21,
  highPercent: 20,
  lowPercent: 5,
} as const;
