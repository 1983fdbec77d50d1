/**
 * The longest delay a Node timer honours: past 2^31-1 ms (about 24.8 days) setTimeout warns
 * and fires after 1 ms, so a 30-day wait would become a busy loop. Config durations that feed
 * timers are bounded below this (MAX_TIMER_MS); every timer goes through here anyway.
 */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** A delay a timer can be armed with: within 0 .. 2^31-1 ms (NaN and negatives are 0). */
export function timerDelay(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(ms, MAX_TIMER_DELAY_MS);
}

/** Work waiting for its next turn, oldest first (see nextTurn). */
const waiting: (() => void)[] = [];
let head = 0;
let armed = false;

/**
 * One part of waiting work per iteration of the event loop. Each iteration runs every
 * callback queued with setImmediate before its check phase: when a storm's poll, its state
 * write, its history, a scrape and a flush each yielded with their own setImmediate, one
 * iteration ran a part of each, back to back (150-250 ms), and a health check waited for all
 * of them. Here the parts take turns: one per iteration, in the order they asked.
 */
function runOne(): void {
  armed = false;
  const resume = waiting[head];
  waiting[head] = undefined as unknown as () => void;
  head += 1;
  if (head === waiting.length) {
    waiting.length = 0;
    head = 0;
  } else {
    if (head >= 1024 && head * 2 >= waiting.length) {
      waiting.splice(0, head);
      head = 0;
    }
    arm();
  }
  resume?.();
}

function arm(): void {
  if (armed) return;
  armed = true;
  setImmediate(runOne);
}

/**
 * A turn of the event loop: resolves in a later check phase (setImmediate), after the I/O
 * already waiting was read, and after the parts of other work that asked first (one part per
 * iteration of the loop). Long work that yields between parts lets health checks and scrapes in.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    arm();
  });
}

/**
 * Runs work written as a generator, one step per turn of the event loop (each `yield` ends a
 * part), and resolves with what it returns.
 */
export async function inTurns<T>(steps: Generator<unknown, T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    await nextTurn();
  }
}

/** Runs work written as a generator to the end at once (no turns), and returns what it returns. */
export function drain<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}
