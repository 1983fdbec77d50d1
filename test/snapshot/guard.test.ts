import { DEFAULT_GUARD, judge, type Suspect } from '../../src/snapshot/guard';
import { applyCoins, applyTickers } from '../../src/snapshot/merge';
import { emptySnapshot, type Snapshot } from '../../src/snapshot/model';
import { coinRecord, tickerRecord } from '../support/records';

function coins(n: number, networksEach = 2): Snapshot {
  const list = Array.from({ length: n }, (_, i) => coinRecord(`C${i}`, Array.from({ length: networksEach }, (_, j) => ({ network: `N${j}` }))));
  return applyCoins(emptySnapshot('main'), { records: list, issues: [] }, 1);
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
