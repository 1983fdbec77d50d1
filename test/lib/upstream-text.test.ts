import { cutMark, shortened, UPSTREAM_TEXT_MAX, upstreamText } from '../../src/lib/upstream-text';

describe('upstreamText', () => {
  it('keeps a well-formed text within the cap as it is', () => {
    expect(upstreamText('Wallet maintenance <b>&</b> 🚧')).toBe('Wallet maintenance <b>&</b> 🚧');
    expect(upstreamText('')).toBe('');
    expect(upstreamText('a'.repeat(UPSTREAM_TEXT_MAX))).toBe('a'.repeat(UPSTREAM_TEXT_MAX));
  });

  it.each([
    ['a lone high surrogate at the end', 'x\ud800', 'x\ufffd'],
    ['a lone low surrogate', '\udc00y', '\ufffdy'],
    ['two high surrogates in a row, then a pair', '\ud800\ud83d\ude80', '\ufffd🚀'],
  ])('replaces %s with U+FFFD', (_name, text, want) => {
    expect(upstreamText(text)).toBe(want);
  });

  it('cuts a 100 KB text to 1,000 characters and says how many were cut', () => {
    const out = upstreamText('m'.repeat(100_000));
    expect(out).toBe(`${'m'.repeat(1000)}… [cut 99,000 characters]`);
    expect(upstreamText('m'.repeat(1001))).toBe(`${'m'.repeat(1000)}… [cut 1 character]`);
  });

  it('counts characters, not UTF-16 code units, and never cuts a surrogate pair in two', () => {
    // 1,000 rockets are 2,000 code units, and within the cap.
    expect(upstreamText('🚀'.repeat(1000))).toBe('🚀'.repeat(1000));
    expect(upstreamText(`${'a'.repeat(999)}🚀🚀🚀`)).toBe(`${'a'.repeat(999)}🚀… [cut 2 characters]`);
    // A lone surrogate is one character, and made U+FFFD in what is kept.
    expect(upstreamText(`\ud800${'b'.repeat(1000)}`)).toBe(`\ufffd${'b'.repeat(999)}… [cut 1 character]`);
  });

  it('cuts the same text the same way, and a cut text again as a text of its own', () => {
    const text = `${'é'.repeat(5000)}\ud800`;
    expect(upstreamText(text)).toBe(upstreamText(text));
    const once = upstreamText(text);
    expect(upstreamText(once)).toBe(`${'é'.repeat(1000)}${cutMark(once.length - 1000)}`);
  });

  it('takes another cap', () => {
    expect(upstreamText('abcdef', 3)).toBe('abc… [cut 3 characters]');
  });
});

describe('shortened', () => {
  it('shows a text in at most max characters, ending in …, never splitting a surrogate pair', () => {
    expect(shortened('abc', 3)).toBe('abc');
    expect(shortened('abcd', 3)).toBe('ab…');
    expect(shortened('🚀🚀🚀', 3)).toBe('🚀🚀🚀');
    expect(shortened('🚀🚀🚀🚀', 3)).toBe('🚀🚀…');
  });
});
