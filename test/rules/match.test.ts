import { compileMatcher, matchesAll } from '../../src/rules/match';

describe('rule, route, inhibit and silence matchers', () => {
  // The finding: a silence `(a+)+$` and a network named with 29 a's and a "!" stalled the
  // daemon 7 s at every flush (doubling per character) on a backtracking engine.
  it('match a hostile label value in linear time', () => {
    const matchers = [compileMatcher('exchange', 'main'), compileMatcher('network', '/(a+)+$/')];
    const started = Date.now();
    expect(matchesAll(matchers, { exchange: 'main', network: `${'a'.repeat(100_000)}!` })).toBe(false);
    expect(matchesAll(matchers, { exchange: 'main', network: `${'a'.repeat(29)}!` })).toBe(false);
    expect(matchesAll(matchers, { exchange: 'main', network: 'a'.repeat(29) })).toBe(true);
    // Generous: only the exponential engine (hours for 100,000 characters) can exceed it.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('need every matcher, and see an absent label as matching only negations', () => {
    const matchers = [compileMatcher('coin', 'USDT|USDC'), compileMatcher('network', '!/.*TRC20.*/')];
    expect(matchesAll(matchers, { coin: 'USDT', network: 'ERC20' })).toBe(true);
    expect(matchesAll(matchers, { coin: 'USDT', network: 'Tron(TRC20)' })).toBe(false);
    expect(matchesAll(matchers, { coin: 'USDT' })).toBe(true);
    expect(matchesAll(matchers, { network: 'ERC20' })).toBe(false);
  });

  it('refuse a pattern RE2 cannot run, naming why', () => {
    expect(() => compileMatcher('coin', '/(?=U)SDT/')).toThrow('invalid regular expression /(?=U)SDT/: lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported: patterns run on RE2, in linear time');
  });
});
