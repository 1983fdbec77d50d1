import { timerDelay } from './timer-delay';

/**
 * The one way spotwatch waits (DESIGN section 2: every timer goes through one injectable
 * scheduler): repeating work (the group flushes, the store's looks, retention, the digest's
 * check, thread pings, the reference exchange's scenario), one-off waits (sleep, deadlines,
 * grace periods, question timeouts) and work for the next turn (a checkpoint after a commit).
 * A test passes its own to run the ticks by hand. No other file of the daemon calls setTimeout,
 * setInterval or setImmediate (scripts/check-imports.mjs checks it); the status page's script,
 * text the daemon serves (http/status-assets.ts), refreshes the page in the reader's browser.
 */
export interface Scheduler {
  /**
   * Runs `run` every `ms` from now on; the function returned stops it. It does not keep the
   * process alive unless `keepAlive` (work that must go on while nothing else is pending: the
   * notification groups' flushes, which test-notify and a draining stop wait on).
   */
  every(ms: number, run: () => void, options?: { keepAlive?: boolean }): () => void;
  /**
   * Runs `run` once, `ms` from now (a wait longer than a timer holds, about 24.8 days, in
   * several timers, never cut to 1 ms); the function returned cancels it. It keeps the process
   * alive unless `keepAlive` is false.
   */
  after(ms: number, run: () => void, options?: { keepAlive?: boolean }): () => void;
  /** Runs `run` in a turn of its own, once I/O already waiting has been read; the function returned cancels it. */
  soon(run: () => void): () => void;
}

export const systemScheduler: Scheduler = {
  every(ms, run, options) {
    const timer = setInterval(run, ms);
    if (options?.keepAlive !== true) timer.unref();
    return () => clearInterval(timer);
  },
  after(ms, run, options) {
    let left = ms;
    let timer: NodeJS.Timeout;
    const arm = (): void => {
      const delay = timerDelay(left);
      left -= delay;
      timer = setTimeout(() => (left > 0 ? arm() : run()), delay);
      if (options?.keepAlive === false) timer.unref();
    };
    arm();
    return () => clearTimeout(timer);
  },
  soon(run) {
    const immediate = setImmediate(run);
    return () => clearImmediate(immediate);
  },
};

/**
 * A scheduler a test runs by hand: `tick()` runs every repeating task once, as each interval
 * would, and every one-off task and next-turn task due (one-off tasks are due at the first
 * tick, whatever their delay: the test decides when time has passed).
 */
export function manualScheduler(): Scheduler & { tick(): void; readonly tasks: number } {
  const tasks = new Set<() => void>();
  const once = new Set<() => void>();
  const later = (run: () => void): (() => void) => {
    const task = (): void => run();
    once.add(task);
    return () => void once.delete(task);
  };
  return {
    every(_ms, run) {
      const task = (): void => run();
      tasks.add(task);
      return () => void tasks.delete(task);
    },
    after: (_ms, run) => later(run),
    soon: later,
    tick() {
      for (const task of [...tasks]) task();
      const due = [...once];
      once.clear();
      for (const task of due) task();
    },
    get tasks() {
      return tasks.size;
    },
  };
}
