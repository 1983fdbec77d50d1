import { WeightBudget } from '../../src/exchange/budget';
import { backoffDelay } from '../../src/exchange/backoff';
import { parseRetryAfter } from '../../src/lib/retry-after';
import { manualClock } from '../../src/lib/clock';

describe('WeightBudget', () => {
  it('admits requests until the window is full, then says how long to wait', () => {
    const clock = manualClock(0);
    const budget = new WeightBudget(12, 10_000, clock);
    expect(budget.tryTake(5)).toBe(0);
    clock.advance(1_000);
    expect(budget.tryTake(5)).toBe(0);
    clock.advance(1_000);
    expect(budget.tryTake(5)).toBe(8_500); // the first 5 leave the window at t=10.5s (10 s plus a 5 % margin)
    expect(budget.used()).toBe(10);
    expect(budget.tryTake(2)).toBe(0);
    expect(budget.used()).toBe(12);
    clock.set(10_500);
    expect(budget.used()).toBe(7);
    expect(budget.tryTake(5)).toBe(0);
  });

  it('admits a single request heavier than the whole budget rather than waiting forever', () => {
    const budget = new WeightBudget(3, 10_000, manualClock(0));
    expect(budget.tryTake(5)).toBe(0);
  });

  it('blocks until a Retry-After or ban has passed', () => {
    const clock = manualClock(0);
    const budget = new WeightBudget(500, 10_000, clock);
    budget.blockUntil(30_000);
    expect(budget.blockedFor()).toBe(30_000);
    expect(budget.tryTake(2)).toBe(30_000);
    clock.set(30_000);
    expect(budget.tryTake(2)).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  it.each([
    ['3', 3_000],
    ['0', 0],
    [['7', '9'], 7_000],
    ['Thu, 01 Jan 1970 00:00:10 GMT', 5_000],
    ['soon', undefined],
    [undefined, undefined],
  ])('%p -> %p ms', (value, ms) => {
    expect(parseRetryAfter(value, 5_000)).toBe(ms);
  });
});

describe('backoffDelay', () => {
  it('grows exponentially, jittered between half and all of the ceiling, and is capped', () => {
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, 500, 3_000, () => 0))).toEqual([250, 500, 1_000, 1_500]);
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, 500, 3_000, () => 0.999999))).toEqual([500, 1_000, 2_000, 3_000]);
  });
});
