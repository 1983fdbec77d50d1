/**
 * The longest delay a Node timer honours: past 2^31-1 ms (about 24.8 days) setTimeout warns
 * and fires after 1 ms, so a 30-day wait would become a busy loop. Config durations that feed
 * timers are bounded below this (MAX_TIMER_MS); every timer goes through here anyway.
 */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** A delay a timer can be armed with: within 0 .. 2^31-1 ms (NaN and negatives are 0). */
export function timerDelay(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(ms, MAX_TIMER_DELAY_MS);
}
