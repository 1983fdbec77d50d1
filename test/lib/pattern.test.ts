import { compilePattern, literalPattern, literalValues, PATTERN_CACHE_SIZE, patternProblem, PatternError } from '../../src/lib/pattern';

describe('label patterns: what matches', () => {
  it.each<[string, string | undefined, boolean]>([
    // globs: the whole value, * and ? over any character
    ['USD*', 'USDT', true],
    ['USD*', 'USD', true],
    ['USD*', 'XUSDT', false],
    ['*USDT', 'BTCUSDT', true],
    ['B?C', 'BTC', true],
    ['B?C', 'BTTC', false],
    ['Tron(TRC20)', 'Tron(TRC20)', true],
    ['Tron(TRC20)', 'TronTRC20', false],
    ['a.b', 'axb', false],
    ['*(TRC20)', 'Tron(TRC20)', true],
    ['100%', '100%', true],
    ['a\\b*', 'a\\bc', true],
    // alternatives
    ['USDT|USDC', 'USDC', true],
    ['USDT|USDC', 'USDTX', false],
    ['USDT|BTC*', 'BTCUSDT', true],
    // regexes, anchored as Alertmanager anchors them
    ['/USD/', 'USD', true],
    ['/USD/', 'USDT', false],
    ['/USD/', 'XUSD', false],
    ['/USD.*/', 'USDT', true],
    ['/a|b/', 'b', true],
    ['/a|b/', 'ab', false],
    ['/\\d+/', '2026', true],
    ['/(?i)usdt/', 'USDT', true],
    ['/.+/', '', false],
    ['/.*/', '', true],
    ['/a/b/', 'a/b', true],
    // negation
    ['!USD*', 'USDT', false],
    ['!USD*', 'BTC', true],
    ['!/US.*/', 'USDT', false],
    ['!USDT|USDC', 'USDC', false],
    ['!USDT|USDC', 'ETH', true],
    // an absent label matches no pattern, so every negated one
    ['*', undefined, false],
    ['/.*/', undefined, false],
    ['!USDT', undefined, true],
    ['!/.*/', undefined, true],
    // a lone slash is a literal, not a regex
    ['/', '/', true],
  ])('%s on %p: %p', (pattern, value, expected) => {
    const test = compilePattern(pattern);
    expect(test(value)).toBe(expected);
    // The second answer comes from the cache: the same.
    expect(test(value)).toBe(expected);
  });

  it('matches a value of exactly a literal pattern', () => {
    for (const value of ['a.b', 'x|y', 'USD*', 'B?C', '(a+)+$', 'a/b', '\\1', 'é-ü', '']) {
      const test = compilePattern(literalPattern(value));
      expect(test(value)).toBe(true);
      expect(test(`${value}x`)).toBe(false);
    }
  });

  it('lists the literal values of a plain pattern only', () => {
    expect(literalValues('USDT|USDC')).toEqual(['USDT', 'USDC']);
    expect(literalValues('USD*')).toEqual([]);
    expect(literalValues('/USDT/')).toEqual([]);
    expect(literalValues('!USDT')).toEqual([]);
  });
});

describe('label patterns against hostile values', () => {
  // Exponential for a backtracking engine: 29 a's took 7 s in V8's; RE2 is linear in the value.
  // The bound only catches the exponential case (which would take longer than the universe's age);
  // linear matching of 100,000 characters takes milliseconds.
  it.each([
    ['/(a+)+$/', 'a'],
    ['/(a|a)*b/', 'a'],
    ['/(a*)*b/', 'a'],
    ['/(.*a){20}/', 'a'],
    ['/(.*a){399}/', 'a'],
    ['*a*a*a*a*a*a*a*a*a*a*b', 'a'],
    ['!/(a+)+$/', 'a'],
  ])('%s against 100,000 %s and a "!" completes', (pattern, ch) => {
    const test = compilePattern(pattern);
    const started = Date.now();
    const hostile = `${ch.repeat(100_000)}!`;
    expect(test(hostile)).toBe(pattern.startsWith('!'));
    expect(test(ch.repeat(29) + '!')).toBe(pattern.startsWith('!'));
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('keeps its per-value cache bounded', () => {
    const test = compilePattern('/v[0-9]+/');
    for (let i = 0; i < PATTERN_CACHE_SIZE * 3; i += 1) expect(test(`v${i}`)).toBe(true);
    expect(test('w1')).toBe(false);
  });
});

describe('label patterns RE2 cannot run', () => {
  it.each([
    ['/(?=a)b/', 'invalid regular expression /(?=a)b/: lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported: patterns run on RE2, in linear time'],
    ['/(?!a)b/', 'invalid regular expression /(?!a)b/: lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported: patterns run on RE2, in linear time'],
    ['/(?<=a)b/', 'invalid regular expression /(?<=a)b/: lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported: patterns run on RE2, in linear time'],
    ['!/(?<!a)b/', 'invalid regular expression /(?<!a)b/: lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported: patterns run on RE2, in linear time'],
    ['/(a)\\1/', 'invalid regular expression /(a)\\1/: backreferences (\\1, \\k<name>) are not supported: patterns run on RE2, in linear time'],
    ['/(?<x>a)\\k<x>/', 'invalid regular expression /(?<x>a)\\k<x>/: backreferences (\\1, \\k<name>) are not supported: patterns run on RE2, in linear time'],
    ['/(?>a)/', 'invalid regular expression /(?>a)/: atomic groups ((?>...)) are not supported: patterns run on RE2, in linear time'],
    ['/a*+/', 'invalid regular expression /a*+/: possessive quantifiers (*+, ++) are not supported: patterns run on RE2, in linear time'],
    ['/[/', 'invalid regular expression /[/: missing closing ]: `[`'],
    ['/a)|(b/', 'invalid regular expression /a)|(b/: unexpected ): `a)|(b`'],
    ['/(a{1000}){1000}/', 'invalid regular expression /(a{1000}){1000}/: invalid repeat count: `{1000}`'],
    ['/(.*a){1000}/', 'pattern too large: it compiles to 5004 instructions, at most 2000 (list values as A|B|C, without /.../, for long lists)'],
    ['/a{1,1000}a{1,1000}/', 'pattern too large: it compiles to 4002 instructions, at most 2000 (list values as A|B|C, without /.../, for long lists)'],
    ['', 'empty pattern'],
    ['!', 'empty pattern after "!"'],
  ])('%s: %s', (pattern, message) => {
    expect(patternProblem(pattern)).toBe(message);
    expect(() => compilePattern(pattern)).toThrow(new PatternError(message));
  });

  it('accepts a long list of plain alternatives, which is a set and not a program', () => {
    const symbols = Array.from({ length: 5000 }, (_, i) => `S${i}USDT`);
    const test = compilePattern(symbols.join('|'));
    expect([test('S4999USDT'), test('S5000USDT')]).toEqual([true, false]);
  });

  it('accepts what it can run', () => {
    expect(['USD*', 'A|B', '/\\p{Greek}+/', '!/[a-z]{2,5}/', '/a{1000}/'].map(patternProblem)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});
