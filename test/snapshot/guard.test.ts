import { DEFAULT_GUARD, judge, type GuardOptions, type Suspect, type Verdict } from '../../src/snapshot/guard';
import { applyCoins, applyTickers } from '../../src/snapshot/merge';
import { emptySnapshot, type Snapshot } from '../../src/snapshot/model';
import { coinRecord, tickerRecord } from '../support/records';

function coins(n: number, networksEach = 2): Snapshot {
  const list = Array.from({ length: n }, (_, i) => coinRecord(`C${i}`, Array.from({ length: networksEach }, (_, j) => ({ network: `N${j}` }))));
  return applyCoins(emptySnapshot('main'), { records: list, issues: [] }, 1);
}

function tickers(n: number): Snapshot {
  return applyTickers(emptySnapshot('main'), { records: Array.from({ length: n }, (_, i) => tickerRecord(`S${i}`)), issues: [] }, 1);
}

const base = coins(100);

describe('judge', () => {
  it('never takes an empty list as real, even as the baseline', () => {
    expect(judge(emptySnapshot('main'), coins(0), 'coins', undefined, 0, DEFAULT_GUARD)).toEqual({ verdict: 'empty' });
    expect(judge(base, coins(0), 'coins', undefined, 0, DEFAULT_GUARD)).toEqual({ verdict: 'empty' });
    const noTickers = applyTickers(emptySnapshot('main'), { records: [], issues: [] }, 1);
    expect(judge(base, noTickers, 'tickers', undefined, 0, DEFAULT_GUARD)).toEqual({ verdict: 'empty' });
  });

  it('accepts the first snapshot and ordinary changes (a 20 % shrink is still ordinary)', () => {
    expect(judge(emptySnapshot('main'), coins(3), 'coins', undefined, 0, DEFAULT_GUARD)).toEqual({ verdict: 'accept' });
    expect(judge(base, coins(80), 'coins', undefined, 0, DEFAULT_GUARD)).toEqual({ verdict: 'accept' });
    expect(judge(base, coins(120), 'coins', undefined, 0, DEFAULT_GUARD)).toEqual({ verdict: 'accept' });
  });

  it('holds a shrink of more than 20 % until it persists for 5 polls and 2 minutes', () => {
    let suspect: Suspect | undefined;
    const verdicts: string[] = [];
    for (const t of [0, 30_000, 60_000, 90_000, 110_000, 120_000]) {
      const v = judge(base, coins(79), 'coins', suspect, t, DEFAULT_GUARD);
      verdicts.push(v.verdict);
      if (v.verdict === 'hold') suspect = v.suspect;
      if (v.verdict === 'accept') expect(v.confirmed).toEqual({ since: 0, polls: 6, before: '100/200', after: '79/158' });
    }
    expect(verdicts).toEqual(['hold', 'hold', 'hold', 'hold', 'hold', 'accept']);
  });

  it('also holds when the coins stay but their networks vanish', () => {
    const v = judge(base, coins(100, 1), 'coins', undefined, 0, DEFAULT_GUARD);
    expect(v).toEqual({ verdict: 'hold', suspect: { since: 0, polls: 1, before: '100/200', after: '100/100' } });
  });

  it('judges tickers by their count', () => {
    const many = applyTickers(emptySnapshot('main'), { records: Array.from({ length: 10 }, (_, i) => tickerRecord(`S${i}`)), issues: [] }, 1);
    const few = applyTickers(emptySnapshot('main'), { records: [tickerRecord('S0')], issues: [] }, 2);
    expect(judge(many, few, 'tickers', undefined, 0, DEFAULT_GUARD)).toEqual({ verdict: 'hold', suspect: { since: 0, polls: 1, before: '10', after: '1' } });
  });
});

describe('judge: the decision, input by input', () => {
  /** Half the list may go at once; a larger shrink is real after 2 polls and 1 s. */
  const options: GuardOptions = { maxShrink: 0.5, confirmPolls: 2, confirmMs: 1_000 };
  const none = emptySnapshot('main');
  const held = (polls: number, before: string, after: string, since = 0): Suspect => ({ since, polls, before, after });

  it.each<[string, Snapshot, Snapshot, 'coins' | 'tickers', Suspect | undefined, number, Verdict]>([
    ['an empty coin list, as the first answer', none, coins(0), 'coins', undefined, 0, { verdict: 'empty' }],
    ['an empty coin list, after a real one', base, coins(0), 'coins', undefined, 0, { verdict: 'empty' }],
    ['an empty coin list, while one is held', base, coins(0), 'coins', held(1, '100/200', '10/20'), 5_000, { verdict: 'empty' }],
    ['an empty ticker list', tickers(10), tickers(0), 'tickers', undefined, 0, { verdict: 'empty' }],
    ['the first coin list, however small', none, coins(1), 'coins', undefined, 0, { verdict: 'accept' }],
    ['the first ticker list', none, tickers(1), 'tickers', undefined, 0, { verdict: 'accept' }],
    ['a list that grows', base, coins(200), 'coins', undefined, 0, { verdict: 'accept' }],
    ['a shrink of exactly max_shrink', base, coins(50), 'coins', undefined, 0, { verdict: 'accept' }],
    ['a shrink past max_shrink: held from now', base, coins(49), 'coins', undefined, 7, { verdict: 'hold', suspect: held(1, '100/200', '49/98', 7) }],
    ['networks vanishing while the coins stay', base, coins(100, 0), 'coins', undefined, 0, { verdict: 'hold', suspect: held(1, '100/200', '100/0') }],
    ['tickers shrinking past max_shrink', tickers(10), tickers(4), 'tickers', undefined, 0, { verdict: 'hold', suspect: held(1, '10', '4') }],
    ['a part that had nothing before (no ratio to take)', tickers(0), tickers(5), 'tickers', undefined, 0, { verdict: 'accept' }],
    ['enough polls, not yet long enough', base, coins(40), 'coins', held(1, '100/200', '49/98'), 999, { verdict: 'hold', suspect: held(2, '100/200', '40/80') }],
    ['long enough, not yet enough polls', base, coins(40), 'coins', undefined, 60_000, { verdict: 'hold', suspect: held(1, '100/200', '40/80', 60_000) }],
    ['enough polls and long enough: accepted, with what was held', base, coins(40), 'coins', held(1, '100/200', '49/98'), 1_000, { verdict: 'accept', confirmed: held(2, '100/200', '40/80') }],
    ['a held shrink that recovers: accepted, nothing confirmed', base, coins(90), 'coins', held(1, '100/200', '49/98'), 500, { verdict: 'accept' }],
  ])('%s', (_what, accepted, next, part, suspect, now, verdict) => {
    expect(judge(accepted, next, part, suspect, now, options)).toEqual(verdict);
  });
});
