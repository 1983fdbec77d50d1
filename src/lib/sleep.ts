import { timerDelay } from './timer-delay';

/**
 * A sleep that an AbortSignal cuts short (rejecting with the signal's reason). A wait longer
 * than a timer can hold is slept in several timers, never cut to 1 ms.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let left = ms;
    let timer: NodeJS.Timeout;
    const arm = (): void => {
      const delay = timerDelay(left);
      left -= delay;
      timer = setTimeout(() => {
        if (left > 0) {
          arm();
          return;
        }
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, delay);
    };
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    arm();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
