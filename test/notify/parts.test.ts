import { arrayRunsWithin, fitFrom, packParts, partLabel, PART_LABELS } from '../../src/notify/kit/parts';

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

describe('packParts: items in order into parts each as full as every measure allows', () => {
  it.each([
    [[3, 3, 3], 7, 1, 0, [2, 1]],
    [[3, 3, 3], 11, 1, 0, [3]],
    [[3, 3, 3], 8, 1, 2, [1, 1, 1]],
    [[9, 1, 1], 5, 0, 0, [1, 2]],
    [[], 5, 0, 0, [0]],
  ])('sizes %j within %i (separator %i, frame %i): %j', (sizes, budget, separator, frame, parts) => {
    expect(packParts([{ sizes, budget, separator, frame }])).toEqual(parts);
  });

  it('holds every measure at once (ntfy: the body\'s bytes and the JSON\'s)', () => {
    expect(packParts([{ sizes: [2, 2, 2], budget: 10 }, { sizes: [4, 4, 4], budget: 8 }])).toEqual([2, 1]);
  });

  it('stops at maxParts: the items after them are in none', () => {
    expect(packParts([{ sizes: [3, 3, 3, 3], budget: 3 }], 2)).toEqual([1, 1]);
  });

  it('fitFrom: at least one item from where it starts, none past the end', () => {
    expect(fitFrom([{ sizes: [1, 9, 1], budget: 5 }], 1)).toBe(1);
    expect(fitFrom([{ sizes: [1, 2, 2], budget: 5, separator: 1 }], 1)).toBe(2);
    expect(fitFrom([{ sizes: [1], budget: 5 }], 1)).toBe(0);
  });
});

describe('partLabel: each receiver\'s numbering, as its docs show it', () => {
  it.each([
    ['ntfy', '(2/3)'], ['pushover', '(2/3)'], ['matrix', '(2/3)'], ['gotify', '(part 2/3)'], ['teams', '(part 2 of 3)'], ['telegram', 'part 2/3'],
  ] as const)('%s: %s', (kind, label) => {
    expect(partLabel(PART_LABELS[kind], 2, 3)).toBe(label);
  });
});
