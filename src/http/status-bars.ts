import type { OutageSpan } from '../outages/model';

export const DAY_MS = 86_400_000;
/** Days of bars per network (Gatus style: one bar a day). */
export const BAR_DAYS = 30;

/** The start of the first of the BAR_DAYS days that end with `now`'s (UTC midnight, ms): where the bars' outages are read from. */
export function firstBarDay(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS - (BAR_DAYS - 1) * DAY_MS;
}

/** One day of a network: how much of it (as watched) deposits and withdrawals were open, and the outages in it. */
export interface DayBar {
  /** The day's start (UTC midnight, ms). */
  day: number;
  /** Open share of the watched part of the day (the worse direction), or null: not watched that day. */
  ratio: number | null;
  /** The watched part of the day (ms) and how much of it was closed (the worse direction). */
  spanMs: number;
  closedMs: number;
  outages: { direction: OutageSpan['direction']; from: number | null; began: number; to: number | null }[];
}

/**
 * The last BAR_DAYS days (UTC, today last and partial) of one network from its outages:
 * each day's open ratio is the worse of deposits' and withdrawals' over the part of the day that
 * was watched (from `since`, up to `now`). Pure; linear in days plus outages.
 */
export function dayBars(spans: readonly OutageSpan[], since: number | undefined, now: number): DayBar[] {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const bars: DayBar[] = [];
  for (let i = BAR_DAYS - 1; i >= 0; i--) {
    const day = today - i * DAY_MS;
    const lo = Math.max(day, since ?? Infinity);
    const hi = Math.min(day + DAY_MS, now);
    if (!(hi > lo)) {
      bars.push({ day, ratio: null, spanMs: 0, closedMs: 0, outages: [] });
      continue;
    }
    const closed = { deposit: 0, withdraw: 0 };
    const outages: DayBar['outages'] = [];
    for (const s of spans) {
      const end = s.to ?? now;
      if (end <= day || s.began >= day + DAY_MS) continue;
      outages.push({ direction: s.direction, from: s.from, began: s.began, to: s.to });
      closed[s.direction] += Math.max(0, Math.min(end, hi) - Math.max(s.began, lo));
    }
    const worst = Math.min(Math.max(closed.deposit, closed.withdraw), hi - lo);
    bars.push({ day, ratio: (hi - lo - worst) / (hi - lo), spanMs: hi - lo, closedMs: worst, outages });
  }
  return bars;
}

/** The open ratio over all the bars (null: no day watched). */
export function overallRatio(bars: readonly DayBar[]): number | null {
  let span = 0;
  let closed = 0;
  for (const b of bars) {
    span += b.spanMs;
    closed += b.closedMs;
  }
  return span > 0 ? (span - closed) / span : null;
}

/** The CSS class of a day's bar: by open ratio, as Gatus colours its uptime bars. */
export function barClass(ratio: number | null): string {
  if (ratio === null) return 'none';
  if (ratio >= 0.9995) return 'up';
  if (ratio >= 0.95) return 'dip';
  if (ratio >= 0.5) return 'part';
  return 'down';
}
