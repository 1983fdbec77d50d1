import { wallNow, type Clock } from './clock';
import type { Logger } from './logger';

/** One reading of both clocks, taken together: wall ms (shown, stored) and monotonic ms (waits, durations). */
export interface Instant {
  readonly wall: number;
  readonly mono: number;
}

/**
 * How far the wall clock may drift from the monotonic one between two readings before it is
 * taken for a step. Between readings a second or less apart, NTP's slewing (at most 500 ppm)
 * moves it by well under a millisecond, and a wall and a monotonic read back to back differ by
 * microseconds; one second is far above both, and far below the steps that matter (minutes, hours).
 */
export const STEP_TOLERANCE_MS = 1_000;

/**
 * The two clocks read together, and a step of the wall clock noticed: when the wall clock moved
 * by more (or less) than the monotonic one since the last reading, beyond STEP_TOLERANCE_MS, it
 * was stepped, and that is logged once (`clock stepped`, with its size: negative, back). Waits
 * are counted on the monotonic clock and the daemon's times on its anchored one (anchoredClock),
 * so a step changes neither; the wall clock read here is the system's (Clock.wall).
 */
export class TimeBase {
  private last: Instant | undefined;

  constructor(
    private readonly clock: Clock,
    /** Where a step is told; none: noticed, not logged (another thread's time base tells it). */
    private readonly logger?: Logger,
  ) {}

  /** Both clocks, now: the wall clock as the system has it (Clock.wall), not an anchored `now`. */
  read(): Instant {
    const at = { wall: wallNow(this.clock), mono: this.clock.monotonic() };
    const last = this.last;
    this.last = at;
    if (last !== undefined) {
      const stepMs = at.wall - last.wall - (at.mono - last.mono);
      if (Math.abs(stepMs) > STEP_TOLERANCE_MS) {
        this.logger?.warn({ stepMs: Math.round(stepMs), from: iso(last.wall + (at.mono - last.mono)), to: iso(at.wall) }, 'clock stepped');
      }
    }
    return at;
  }
}

/** Both clocks of `clock`, read together: where a time line is anchored (anchoredClock). */
export function anchorOf(clock: Clock): Instant {
  return { wall: wallNow(clock), mono: clock.monotonic() };
}

/**
 * The daemon's clock: `now` is the wall time of `anchor` plus the monotonic time since, so the
 * times it stamps read as wall time (they are, to within the drift NTP slews away) and the
 * difference of any two of them is a monotonic duration: an outage, `for`, an alert's
 * `endsAt - startsAt`, an availability, a digest's span are what passed, whichever way the wall
 * clock was stepped meanwhile. A step is not followed while the process runs (TimeBase logs it);
 * the next start anchors on the wall clock as it is then. Every thread of a process is given the
 * same anchor (runtime/engine.ts), so their times are one time line. `wall` stays the system's.
 */
export function anchoredClock(clock: Clock, anchor: Instant = anchorOf(clock)): Clock {
  return {
    // Whole milliseconds, as Date.now gives (stored as integers, shown as ISO times).
    now: () => Math.round(anchor.wall + (clock.monotonic() - anchor.mono)),
    monotonic: () => clock.monotonic(),
    wall: () => wallNow(clock),
  };
}

/**
 * How long ago a stored wall time was, never negative: a time ahead of `now` (written before the
 * clock was set back) counts as just now, never as something that has not happened yet.
 */
export function wallSince(at: number, now: number): number {
  return Math.max(0, now - at);
}

function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}
