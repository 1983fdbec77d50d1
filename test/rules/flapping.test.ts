import type { Change } from '../../src/snapshot/changes';
import { DEFAULT_FLAPPING, EMPTY_BOOK, percentChange, recordFlips, thingOf, type FlapBook } from '../../src/rules/flapping';

const flip = (kind: Change['kind'], where: Partial<Change> = { coin: 'USDT', network: 'TRX' }): Change => ({ kind, exchange: 'main', before: null, after: null, at: 0, ...where });

/** The book after each poll, the n-th poll with the changes given for it. */
function polls(perPoll: readonly (readonly Change[])[], book: FlapBook = EMPTY_BOOK): FlapBook[] {
  const out: FlapBook[] = [];
  for (const changes of perPoll) out.push((book = recordFlips(book, changes, DEFAULT_FLAPPING)));
  return out;
}

describe('percentChange: Nagios weighted percent state change over 20 slots', () => {
  it.each([
    ['no change', [], 0],
    ['one change, newest slot', [21], 6],
    ['one change, oldest slot', [2], 4],
    ['four changes in the newest slots', [18, 19, 20, 21], 23.37],
    ['three changes in the newest slots', [19, 20, 21], 17.68],
    ['a change every poll', Array.from({ length: 20 }, (_, i) => i + 2), 100],
    ['a change older than the window does not count', [1], 0],
  ])('%s', (_name, changedAt, percent) => {
    expect(percentChange(changedAt, 21, 21)).toBeCloseTo(percent, 2);
  });
});

describe('recordFlips', () => {
  it('counts a flag flip, a network coming or going and a symbol listed or delisted; nothing else', () => {
    expect(thingOf(flip('withdraw_disabled'))).toEqual({ key: 'n\u0000USDT\u0000TRX', where: { coin: 'USDT', network: 'TRX' } });
    expect(thingOf(flip('network_removed'))).toEqual({ key: 'n\u0000USDT\u0000TRX', where: { coin: 'USDT', network: 'TRX' } });
    expect(thingOf(flip('symbol_delisted', { symbol: 'BTCUSDT' }))).toEqual({ key: 's\u0000BTCUSDT', where: { symbol: 'BTCUSDT' } });
    expect(thingOf(flip('withdraw_fee_changed'))).toBeUndefined();
    expect(thingOf(flip('withdraw_all_disabled', { coin: 'USDT' }))).toBeUndefined();
  });

  it('a network answered open and closed in turn flaps at its fourth change, and settles once it has been quiet long enough', () => {
    const alternating = [flip('withdraw_disabled'), flip('withdraw_enabled')];
    const books = polls([
      [], // baseline
      ...Array.from({ length: 6 }, (_, i) => [alternating[i % 2]!]),
      ...Array.from({ length: 25 }, () => []),
    ]);
    const flapping = books.map((b) => b.things.get('n\u0000USDT\u0000TRX')?.flapping ?? false);
    // Polls 2-4: three changes (17.7 %), not yet; poll 5: the fourth (23.4 %).
    expect(flapping.slice(0, 5)).toEqual([false, false, false, false, true]);
    // Flapping while the percent stays at 5 % or more (the sum of the weights at 1 or more): at
    // poll 25 the changes of polls 6 and 7 weigh 0.80 + 0.82; at poll 26 only poll 7's is left,
    // in the oldest slot (0.8: 4 %), and it settles, 19 polls after its last change.
    const settled = flapping.indexOf(false, 5);
    expect(settled).toBe(25);
    expect(percentChange(books[settled - 1]!.things.get('n\u0000USDT\u0000TRX')!.changedAt, books[settled - 1]!.poll, 21)).toBeGreaterThanOrEqual(5);
    // Once every change has left the window the thing is forgotten.
    expect(books[books.length - 1]!.things.size).toBe(0);
  });

  it('one closure, and every network closing at once, is no flapping', () => {
    const storm = Array.from({ length: 8000 }, (_, i) => flip('withdraw_disabled', { coin: `C${i}`, network: 'TRX' }));
    const books = polls([[], storm, [], [], storm.map((c) => ({ ...c, kind: 'withdraw_enabled' as const }))]);
    expect(books[4]!.things.size).toBe(8000);
    expect([...books[4]!.things.values()].some((f) => f.flapping)).toBe(false);
  });

  it('keeps the same empty book while nothing changes, and tracks nothing when disabled', () => {
    const book = recordFlips(EMPTY_BOOK, [], DEFAULT_FLAPPING);
    expect(book.things).toBe(EMPTY_BOOK.things);
    expect(book.poll).toBe(1);
    const off = { ...DEFAULT_FLAPPING, enabled: false };
    expect(recordFlips(EMPTY_BOOK, [flip('withdraw_disabled')], off)).toBe(EMPTY_BOOK);
  });
});
