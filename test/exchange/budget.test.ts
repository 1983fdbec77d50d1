import { parseConfig } from '../../src/config/load';
import { dialects } from '../../src/exchange/dialects/registry';
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

describe('each dialect budgets by its exchange\'s documented limit unless the config sets one', () => {
  const config = (dialect: string, extra = ''): { max: number; window: number } => {
    const key = dialect === 'okx' ? '{ api_key: k, api_secret: s, passphrase: p }' : '{ api_key: k, api_secret: s }';
    const credentials = dialects.named(dialect).credentials === undefined ? '' : `\n    credentials: ${key}`;
    const result = parseConfig(`exchanges:\n  - name: ex\n    dialect: ${dialect}\n    base_url: http://127.0.0.1:1${credentials}${extra}\n`, 'spotwatch.yaml', {}, '/tmp');
    if (!result.ok) throw new Error(result.problems.join('\n'));
    return result.config.exchanges[0]?.weight_limit as { max: number; window: number };
  };

  it.each([
    // dialect, max, window (ms): the exchange's own figure, in the units of the dialect's weights
    ['spot-v3', 500, 10_000],
    ['binance', 6_000, 60_000],
    ['mexc', 500, 10_000],
    ['okx', 6, 1_000],
    ['bybit', 600, 5_000],
    ['bitget', 20, 1_000],
    ['kucoin', 2_000, 30_000],
    ['gate', 200, 10_000],
    ['htx', 100, 10_000],
  ])('%s: %d per %d ms', (dialect, max, window) => {
    expect(config(dialect)).toEqual({ max, window });
  });

  it('every dialect but spot-v3 says its limit, and every request fits in it', () => {
    for (const name of dialects.names().filter((n) => n !== 'spot-v3')) {
      const d = dialects.named(name);
      const limit = d.defaults.weightLimit;
      expect({ name, limit: limit !== undefined }).toEqual({ name, limit: true });
      const heaviest = Math.max(d.requests.coins().weight, d.requests.tickers(undefined).weight);
      expect({ name, fits: heaviest <= (limit?.max ?? 0) }).toEqual({ name, fits: true });
    }
  });

  it('takes the config\'s figures, each part on its own', () => {
    expect(config('binance', '\n    weight_limit: { max: 1200, window: 1m }')).toEqual({ max: 1_200, window: 60_000 });
    expect(config('binance', '\n    weight_limit: { max: 1200 }')).toEqual({ max: 1_200, window: 60_000 });
    expect(config('gate', '\n    weight_limit: { window: 1s }')).toEqual({ max: 200, window: 1_000 });
    expect(config('spot-v3', '\n    weight_limit: { max: 50 }')).toEqual({ max: 50, window: 10_000 });
  });
});
