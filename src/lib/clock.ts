/**
 * Time as a dependency: the core never reads the clock, the edges get one injected.
 *
 * Two clocks, for two uses. The wall clock says what time it is, and it can be stepped (an NTP
 * correction, a VM resumed, a wrong clock fixed). The monotonic clock (`monotonic`) only says how
 * much time passed: every wait and every "how long since" within this process is measured on it.
 * The daemon's `now` is the wall clock read once, when it started, plus the monotonic time since
 * (anchoredClock, lib/time-base.ts): what it shows and stores reads as wall time, and the
 * difference of two of its times is a monotonic duration, whatever the wall clock did between.
 */

/** Where the time comes from. */
export interface Clock {
  /** Wall time: milliseconds since the Unix epoch (the daemon's: anchored, see anchoredClock). */
  now(): number;
  /**
   * Milliseconds on a clock that is never stepped (CLOCK_MONOTONIC): the same in every thread of
   * this process, meaningless in another process (never stored).
   */
  monotonic(): number;
  /**
   * The wall clock as the system has it this instant, stepped or not, where `now` is anchored
   * (anchoredClock): only to notice a step (TimeBase). Absent: `now` is the wall clock itself.
   */
  wall?(): number;
}

/**
 * The wall clock as the system has it now (Clock.wall, else `now`): for comparing with another
 * machine's clock (a signed request's timestamp, a Retry-After date, a Telegram message's date),
 * never for a duration.
 */
export function wallNow(clock: Clock): number {
  return clock.wall?.() ?? clock.now();
}

export const systemClock: Clock = {
  now: () => Date.now(),
  // process.hrtime is CLOCK_MONOTONIC, shared by every thread; performance.now() counts from each thread's own origin.
  monotonic: () => Number(process.hrtime.bigint()) / 1e6,
};

/**
 * A clock a test moves by hand: `advance` lets time pass; `set` too, to a later time (set to an
 * earlier one, only the wall clock goes back); `step` moves the wall clock alone (a step).
 */
export function manualClock(start = 0): Clock & { set(ms: number): void; advance(ms: number): void; step(ms: number): void } {
  let t = start;
  let mono = 0;
  return {
    now: () => t,
    monotonic: () => mono,
    set: (ms: number) => {
      if (ms > t) mono += ms - t;
      t = ms;
    },
    advance: (ms: number) => {
      t += ms;
      mono += ms;
    },
    step: (ms: number) => {
      t += ms;
    },
  };
}
