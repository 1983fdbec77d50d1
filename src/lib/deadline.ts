import { performance } from 'node:perf_hooks';
import { systemScheduler, type Scheduler } from './scheduler';

/** A timer firing later than this was held up by a busy event loop, not by the far end. */
const LATE_MS = 20;

export interface Deadline {
  cancel(): void;
}

/**
 * Calls `onExpire` once `ms` have passed since the request was sent, counting only time the
 * process could spend on it: a timer that fires late (the event loop was blocked) gives the
 * far end back the time the loop took from it, so an answer that arrived during the stall is
 * read before anything is declared; and even on time, I/O already waiting is read first (the
 * check phase, where a scheduler's `soon` runs, follows the poll phase). A busy process is never taken
 * for a silent peer.
 */
export function deadline(ms: number, onExpire: () => void, now: () => number = () => performance.now(), scheduler: Scheduler = systemScheduler): Deadline {
  let due = now() + ms;
  // What is given back is bounded (at most `ms` in all), so a loop that is late at every turn
  // still ends a silent peer's request, after at most twice its time.
  let givenBack = 0;
  let cancel: () => void;
  const fire = (): void => {
    const late = now() - due;
    if (late > LATE_MS && givenBack < ms) {
      const back = Math.min(late, ms - givenBack);
      givenBack += back;
      due = now() + back;
      cancel = scheduler.after(back, fire);
      return;
    }
    cancel = scheduler.soon(onExpire);
  };
  cancel = scheduler.after(ms, fire);
  return {
    cancel: () => cancel(),
  };
}

/** The error a deadline aborts with: named as AbortSignal.timeout()'s is, so classifiers see a timeout. */
export function timeoutError(ms: number): Error {
  const err = new Error(`no answer within ${ms} ms`);
  err.name = 'TimeoutError';
  return err;
}
