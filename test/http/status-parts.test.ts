import { barClass, dayBars, overallRatio, DAY_MS } from '../../src/http/status-bars';
import { statusQuery } from '../../src/http/status-query';
import { Watched } from '../../src/http/status-watch';
import { parseRules } from '../../src/rules/parse';
import type { Rule } from '../../src/rules/model';
import { networkRecord } from '../support/records';

const H = 3_600_000;
const TODAY = Date.UTC(2026, 10, 23);
const NOW = TODAY + 12 * H;

describe('dayBars: 30 days a network, the worse direction, over the watched part of each day', () => {
  it('marks days before watching began as not watched, and counts today up to now', () => {
    const bars = dayBars([], TODAY - DAY_MS + 6 * H, NOW);
    expect(bars).toHaveLength(30);
    expect(bars.slice(0, 28).every((b) => b.ratio === null && b.spanMs === 0)).toBe(true);
    expect(bars.slice(28).map((b) => [new Date(b.day).toISOString(), b.ratio, b.spanMs, b.closedMs])).toEqual([
      ['2026-11-22T00:00:00.000Z', 1, 18 * H, 0],
      ['2026-11-23T00:00:00.000Z', 1, 12 * H, 0],
    ]);
  });

  it.each([
    ['one withdraw closure of 3 h today', [{ direction: 'withdraw' as const, began: TODAY + H, from: TODAY + H, to: TODAY + 4 * H }], 0.75, 'part'],
    ['deposits and withdrawals closed at once: the worse, not the sum', [{ direction: 'deposit' as const, began: TODAY, from: TODAY, to: TODAY + 3 * H }, { direction: 'withdraw' as const, began: TODAY + H, from: TODAY + H, to: TODAY + 2 * H }], 0.75, 'part'],
    ['still closed since yesterday', [{ direction: 'deposit' as const, began: TODAY - 2 * H, from: TODAY - 2 * H, to: null }], 0, 'down'],
    ['a 30-second closure', [{ direction: 'withdraw' as const, began: TODAY + H, from: TODAY + H, to: TODAY + H + 30_000 }], 1 - 30_000 / (12 * H), 'dip'],
  ])('%s', (_name, spans, ratio, cls) => {
    const today = dayBars(spans, TODAY - 10 * DAY_MS, NOW)[29]!;
    expect([today.ratio, barClass(today.ratio), today.outages.length]).toEqual([ratio, cls, spans.length]);
  });

  it('puts an outage over midnight in both days, and sums the open share over all days', () => {
    const bars = dayBars([{ direction: 'withdraw', began: TODAY - 6 * H, from: TODAY - 6 * H, to: TODAY + 6 * H }], TODAY - DAY_MS, NOW);
    expect(bars.slice(28).map((b) => [b.ratio, b.outages.length])).toEqual([[0.75, 1], [0.5, 1]]);
    expect(overallRatio(bars)).toBe(24 / 36);
    expect(overallRatio(dayBars([], undefined, NOW))).toBeNull();
  });

  it.each([[1, 'up'], [0.9995, 'up'], [0.99, 'dip'], [0.95, 'dip'], [0.6, 'part'], [0.5, 'part'], [0.49, 'down'], [null, 'none']])('a day %s open is %s', (ratio, cls) => {
    expect(barClass(ratio)).toBe(cls);
  });
});

describe('Watched: the networks and symbols the rules name', () => {
  const rules = (yaml: string): Rule[] => {
    const r = parseRules(yaml, 'rules.yaml', {});
    if (!r.ok) throw new Error(r.problems.join('\n'));
    return r.rules;
  };
  const RULES = rules(`rules:
  - alert: Closed
    state: withdraw_disabled
    match: { coin: "USD*", chain: tron }
  - alert: Any
    change: [withdraw_fee_changed]
  - alert: Route
    transfer: { coin: BTC, from: a, to: b }
  - alert: Move
    ticker: change_24h_percent
    above: 5
    match: { symbol: "*USDT" }
`);
  it.each([
    ['a', 'USDT', 'TRX', 'tron', true],
    ['a', 'USDC', 'TRX', 'tron', true],
    ['a', 'USDT', 'ETH', 'ethereum', false],
    ['a', 'USDT', 'TRX', null, false],
    ['b', 'BTC', 'BTC', 'bitcoin', true],
    ['c', 'BTC', 'BTC', 'bitcoin', false],
    ['a', 'ETH', 'ETH', 'ethereum', false],
  ])('%s %s on %s (chain %s): %s', (exchange, coin, network, chain, watched) => {
    expect(new Watched().network(RULES, exchange, coin, networkRecord({ coin, network }), chain)).toBe(watched);
  });

  it('symbols by ticker rules that name them; a new rules list is judged afresh', () => {
    const w = new Watched();
    const n = networkRecord({ coin: 'ETH', network: 'ETH' });
    expect([w.symbol(RULES, 'a', 'BTCUSDT'), w.symbol(RULES, 'a', 'BTCEUR'), w.network(RULES, 'a', 'ETH', n, null)]).toEqual([true, false, false]);
    const other = rules('rules:\n  - alert: E\n    state: deposit_disabled\n    match: { coin: ETH }\n');
    expect([w.symbol(other, 'a', 'BTCUSDT'), w.network(other, 'a', 'ETH', n, null)]).toEqual([false, true]);
  });
});

describe('statusQuery: what a person typed in the address bar', () => {
  it.each([
    [{}, {}],
    [{ q: ' usdt tron ', sort: 'name', page: '3' }, { q: ' usdt tron ', sort: 'name', page: 3 }],
    [{ q: '   ', sort: 'sideways', page: '0' }, {}],
    [{ q: ['a', 'b'], page: '2.5' }, { q: 'a' }],
    [{ q: 'x'.repeat(300) }, { q: 'x'.repeat(200) }],
  ])('%j -> %j', (query, expected) => {
    expect(statusQuery(query)).toEqual(expected);
  });
});
