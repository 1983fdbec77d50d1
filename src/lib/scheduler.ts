/**
 * Repeating work, the one way spotwatch runs something every so often (DESIGN section 2: every
 * timer goes through one injectable scheduler): the group flushes, the store's looks and
 * checkpoints, retention, the digest's check, thread pings, the reference exchange's scenario.
 * A test passes its own to run the ticks by hand. One-off waits are `sleep` (lib/sleep.ts).
 */
export interface Scheduler {
  /**
   * Runs `run` every `ms` from now on; the function returned stops it. It does not keep the
   * process alive unless `keepAlive` (work that must go on while nothing else is pending: the
   * notification groups' flushes, which test-notify and a draining stop wait on).
   */
  every(ms: number, run: () => void, options?: { keepAlive?: boolean }): () => void;
}

export const systemScheduler: Scheduler = {
  every(ms, run, options) {
    const timer = setInterval(run, ms);
    if (options?.keepAlive !== true) timer.unref();
    return () => clearInterval(timer);
  },
};

/** A scheduler a test runs by hand: `tick()` runs every task once, as each interval would. */
export function manualScheduler(): Scheduler & { tick(): void; readonly tasks: number } {
  const tasks = new Set<() => void>();
  return {
    every(_ms, run) {
      const task = (): void => run();
      tasks.add(task);
      return () => void tasks.delete(task);
    },
    tick() {
      for (const task of [...tasks]) task();
    },
    get tasks() {
      return tasks.size;
    },
  };
}
