import { MAX_TIMER_DELAY_MS, timerDelay } from '../../src/lib/timer-delay';

describe('timerDelay', () => {
  it('bounds timer delays to what setTimeout honours', () => {
    expect([timerDelay(-1), timerDelay(Number.NaN), timerDelay(5), timerDelay(2 ** 40)]).toEqual([0, 0, 5, MAX_TIMER_DELAY_MS]);
  });
});
