import { systemScheduler, type Scheduler } from './scheduler';

/**
 * A sleep that an AbortSignal cuts short (rejecting with the signal's reason). A wait longer
 * than a timer can hold is slept in several timers, never cut to 1 ms.
 */
export function sleep(ms: number, signal?: AbortSignal, scheduler: Scheduler = systemScheduler): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      cancel();
      reject(signal?.reason);
    };
    const cancel = scheduler.after(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
