import { arrayRunsWithin } from '../../src/notify/kit/fit-alerts';

describe('arrayRunsWithin: JSON arrays split under a byte bound', () => {
  it.each([
    // sizes, budget, runs: `[a]` is size + 2 bytes, each more item size + 1 (its comma)
    [[10, 10, 10], 0, [3]],
    [[10, 10, 10], 34, [3]],
    [[10, 10, 10], 33, [2, 1]],
    [[10, 10, 10], 23, [2, 1]],
    [[10, 10, 10], 22, [1, 1, 1]],
    [[10, 50, 10], 30, [1, 1, 1]],
    [[3, 3, 3, 3, 3], 11, [2, 2, 1]],
    [[], 100, [0]],
  ])('%j under %d bytes: runs of %j', (sizes, budget, runs) => {
    expect(arrayRunsWithin(sizes, budget)).toEqual(runs);
  });
});
