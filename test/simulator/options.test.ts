import { MAX_SIMULATED_COINS } from '../../src/lib/simulated-market';
import { resolveOptions } from '../../src/simulator/options';

describe('the simulator options', () => {
  it('take a market of up to 20,000 coins', () => {
    expect(MAX_SIMULATED_COINS).toBe(20_000);
    expect(resolveOptions({ coins: 20_000 }).coins).toBe(20_000);
  });

  it.each([
    [999_999_999, 'coins must be at most 20000 (got 999999999)'],
    [20_001, 'coins must be at most 20000 (got 20001)'],
    [0, 'coins must be a positive integer (got 0)'],
  ])('refuse %d coins with a clear error, before building anything', (coins, message) => {
    expect(() => resolveOptions({ coins })).toThrow(new RangeError(message));
  });
});
