import type { Clock } from '../lib/clock';

/**
 * The client's own request-weight budget: a sliding window over the weights it has spent,
 * so it never sends a request the exchange would have to refuse. An exchange's `Retry-After`
 * (429) or ban (418) blocks it further until the given time. Counted on the monotonic clock:
 * a wall clock set back neither blocks it for an hour nor keeps old weights in the window.
 */
export class WeightBudget {
  private readonly spent: { at: number; weight: number }[] = [];
  private blockedUntil = 0;
  /**
   * The window as the client counts it: a little longer than the exchange's, because the
   * exchange stamps a request when it arrives, later than we did, and a request that was slow
   * to arrive leaves its window later there than here.
   */
  private readonly windowMs: number;

  constructor(
    private readonly max: number,
    windowMs: number,
    private readonly clock: Clock,
  ) {
    this.windowMs = windowMs + Math.max(100, Math.round(windowMs * 0.05));
  }

  /** Weight spent within the current window. */
  used(): number {
    this.expire(this.clock.monotonic());
    let total = 0;
    for (const s of this.spent) total += s.weight;
    return total;
  }

  /**
   * Spends `weight` now if the window has room (returns 0), otherwise spends nothing and
   * returns how many milliseconds to wait before asking again. `ceiling` (at most the budget)
   * keeps the rest of the window for others: a notice request takes only from the lower half,
   * so a coins or tickers poll always finds the upper half.
   */
  tryTake(weight: number, ceiling: number = this.max): number {
    const max = Math.min(ceiling, this.max);
    const now = this.clock.monotonic();
    if (now < this.blockedUntil) return this.blockedUntil - now;
    this.expire(now);
    let total = weight;
    for (const s of this.spent) total += s.weight;
    if (total <= max || this.spent.length === 0) {
      this.spent.push({ at: now, weight });
      return 0;
    }
    // Wait until enough of the oldest spending leaves the window.
    let excess = total - max;
    for (const s of this.spent) {
      excess -= s.weight;
      if (excess <= 0) return Math.max(1, s.at + this.windowMs - now);
    }
    return this.windowMs;
  }

  /** No request before `untilMs`, on the clock's monotonic time (from a 429's Retry-After or a 418 ban). */
  blockUntil(untilMs: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, untilMs);
  }

  /** Milliseconds until the block lifts (0 when not blocked). */
  blockedFor(): number {
    return Math.max(0, this.blockedUntil - this.clock.monotonic());
  }

  private expire(now: number): void {
    while (this.spent.length > 0 && (this.spent[0] as { at: number }).at <= now - this.windowMs) this.spent.shift();
  }
}
