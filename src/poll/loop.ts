import type { Clock } from '../lib/clock';
import { sleep } from '../lib/sleep';

/**
 * Runs one job on an interval: never two runs at once, a slow run delays the next one
 * instead of piling up, and each wait carries a little jitter so several exchanges and
 * endpoints do not fire in lockstep. `stop()` aborts the run in flight through its signal.
 */
export interface LoopOptions {
  intervalMs: number;
  /** Fraction of the interval added at random to each wait (0.1 = up to 10 %). */
  jitter: number;
  clock: Clock;
  random: () => number;
  run: (signal: AbortSignal) => Promise<void>;
  /** Called when `run` throws; a loop never dies of one failed run. */
  onError: (err: unknown) => void;
}

export interface Loop {
  /** Resolves once the run in flight (if any) has finished and no further run will start. */
  stop(): Promise<void>;
}

export function startLoop(options: LoopOptions): Loop {
  const stopping = new AbortController();
  const done = (async () => {
    while (!stopping.signal.aborted) {
      const started = options.clock.monotonic();
      try {
        await options.run(stopping.signal);
      } catch (err) {
        if (!stopping.signal.aborted) options.onError(err);
      }
      if (stopping.signal.aborted) break;
      // On the monotonic clock: a wall clock set back an hour does not stop polling for an hour.
      const elapsed = options.clock.monotonic() - started;
      const wait = Math.max(0, options.intervalMs - elapsed) + Math.round(options.random() * options.jitter * options.intervalMs);
      try {
        await sleep(wait, stopping.signal);
      } catch {
        // woken early by stop(): the while condition ends it
      }
    }
  })();
  return {
    async stop() {
      stopping.abort(new Error('stopping'));
      await done;
    },
  };
}
