import { changeRatio, spreadRatio } from '../../src/rules/measure';

describe('changeRatio: (last - from) / from, the 24 h change of the metrics and the percent rules', () => {
  it.each<[number | undefined, number | undefined, number | undefined]>([
    [110, 100, 0.1],
    [90, 100, -0.1],
    [100, 100, 0],
    [5, 0, undefined],
    [undefined, 100, undefined],
    [100, undefined, undefined],
  ])('last %p from %p -> %p', (last, from, ratio) => {
    expect(changeRatio(last, from)).toBe(ratio);
  });
});

describe('spreadRatio: (ask - bid) / mid, the spread of the metrics and of spread_bps', () => {
  it.each<[number | undefined, number | undefined, number | undefined]>([
    [99, 101, 0.02],
    [100, 100, 0],
    [101, 99, -0.02],
    [0, 101, undefined],
    [99, 0, undefined],
    [-1, 101, undefined],
    [undefined, 101, undefined],
    [99, undefined, undefined],
  ])('bid %p ask %p -> %p', (bid, ask, ratio) => {
    expect(spreadRatio(bid, ask)).toBe(ratio);
  });
});
