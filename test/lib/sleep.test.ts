import { sleep } from '../../src/lib/sleep';
import { MAX_TIMER_DELAY_MS, timerDelay } from '../../src/lib/timer-delay';

describe('timers', () => {
  it.each([
    [5, 5],
    [0, 0],
    [-3, 0],
    [Number.NaN, 0],
    [MAX_TIMER_DELAY_MS, 2_147_483_647],
    [MAX_TIMER_DELAY_MS + 1, 2_147_483_647],
    [30 * 86_400_000, 2_147_483_647],
    [Number.POSITIVE_INFINITY, 2_147_483_647],
  ])('arm a delay of %d ms with %d ms', (ms, armed) => {
    expect(timerDelay(ms)).toBe(armed);
  });

  // Node fires a setTimeout past 2^31-1 ms after 1 ms: a 30-day sleep must not end at once.
  it.each([30 * 86_400_000, 2 ** 31, 1e300])('a sleep of %d ms is still asleep after a real timer of 50 ms', async (ms) => {
    const stop = new AbortController();
    let ended = false;
    const sleeping = sleep(ms, stop.signal).then(() => {
      ended = true;
    }, () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ended).toBe(false);
    stop.abort(new Error('done'));
    await sleeping;
    expect(ended).toBe(false);
  });

  it('a short sleep ends, and an abort ends a sleep with its reason', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
    const stop = new AbortController();
    const sleeping = sleep(60_000, stop.signal);
    stop.abort(new Error('stopping'));
    await expect(sleeping).rejects.toThrow('stopping');
  });
});
