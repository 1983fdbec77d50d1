/**
 * Time as a dependency: the core never reads the clock, the edges get one injected.
 *
 * Two clocks, for two uses. The wall clock (`now`) says what time it is: it is what is shown
 * and stored, and it can be stepped (an NTP correction, a VM resumed, a wrong clock fixed). The
 * monotonic clock (`monotonic`) only says how much time passed: every wait and every "how long
 * since" within this process is measured on it (lib/time-base.ts).
 */

/** Where the time comes from. */
export interface Clock {
  /** Wall time: milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Milliseconds on a clock that is never stepped (CLOCK_MONOTONIC): the same in every thread of
   * this process, meaningless in another process (never stored).
   */
  monotonic(): number;
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
