import { escapeHtml } from '../../src/lib/html';
import { visibleText } from '../../src/lib/visible-text';

describe('visibleText: control and bidi characters as visible escapes', () => {
  it.each([
    ['ESC, BEL, NUL', '\u001b[31mred\u0007\u0000', '\\u001b[31mred\\u0007\\u0000'],
    ['DEL and C1 (CSI)', 'a\u007fb\u009bc', 'a\\u007fb\\u009bc'],
    ['embeddings and overrides', '\u202a\u202b\u202c\u202d\u202e', '\\u202a\\u202b\\u202c\\u202d\\u202e'],
    ['isolates', '\u2066\u2067\u2068\u2069', '\\u2066\\u2067\\u2068\\u2069'],
    ['marks', '\u200e\u200f\u061c', '\\u200e\\u200f\\u061c'],
    ['tab and newlines', 'a\tb\nc\rd', 'a\\u0009b\\u000ac\\u000dd'],
    ['text to keep (Arabic, emoji, zero-width joiner)', 'شبكة 👍🏽 a\u200db', 'شبكة 👍🏽 a\u200db'],
  ])('%s', (_name, text, shown) => {
    expect(visibleText(text)).toBe(shown);
  });

  it('keeps tab and newlines where the format holds them (lines)', () => {
    expect(visibleText('a\tb\nc\r\u0007', true)).toBe('a\tb\nc\r\\u0007');
  });
});

describe('escapeHtml', () => {
  it('escapes markup, shows controls and bidi characters, and replaces what HTML forbids (noncharacters, lone surrogates) with U+FFFD', () => {
    expect(escapeHtml('<b>&"\'\u001b[31m\u0007\u0000\u202Eesrever\nline\ufdd0\uffff\u{10FFFE}x\ud800')).toBe('&lt;b&gt;&amp;&quot;&#39;\\u001b[31m\\u0007\\u0000\\u202eesrever\nline\ufffd\ufffd\ufffdx\ufffd');
  });
});
