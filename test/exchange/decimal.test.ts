import fc from 'fast-check';
import { DECIMAL_KEYS, isDecimalText, parseJsonKeepingDecimals, readDecimal } from '../../src/exchange/decimal';

/** Decimal text as JSON's number grammar writes it: sign, digits, fraction, exponent in either case. */
const jsonNumberText = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,20}$/)),
    fc.option(fc.stringMatching(/^[0-9]{1,20}$/), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.stringMatching(/^[0-9]{1,3}$/)), { nil: undefined }),
  )
  .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac !== undefined ? `.${frac}` : ''}${exp ? exp.join('') : ''}`);

describe('parseJsonKeepingDecimals', () => {
  it('keeps the exact text of a bare number under a decimal key, whatever its notation', () => {
    fc.assert(
      fc.property(jsonNumberText, fc.constantFrom(...DECIMAL_KEYS), fc.constantFrom('', ' ', '\n\t'), (text, key, ws) => {
        const body = `[{"network":"X",${ws}"${key}"${ws}:${ws}${text}${ws},"minConfirm":12}]`;
        expect(parseJsonKeepingDecimals(body)).toEqual([{ network: 'X', [key]: text, minConfirm: 12 }]);
      }),
    );
  });

  it.each([
    ['1E-8', '1E-8'],
    ['1e-8', '1e-8'],
    ['0.00000001', '0.00000001'],
    ['1', '1'],
    ['1.0E+2', '1.0E+2'],
    ['-0.5e10', '-0.5e10'],
  ])('withdrawIntegerMultiple %s stays "%s"', (raw, text) => {
    expect(parseJsonKeepingDecimals(`{"withdrawIntegerMultiple":${raw}}`)).toEqual({ withdrawIntegerMultiple: text });
  });

  it('quotes only the keys of the answer it reads', () => {
    const body = '{"withdrawFee":1E-8,"withdrawIntegerMultiple":0.10,"lastPrice":2.50,"quoteVolume":1e3}';
    expect(parseJsonKeepingDecimals(body, 'coins')).toEqual({ withdrawFee: '1E-8', withdrawIntegerMultiple: '0.10', lastPrice: 2.5, quoteVolume: 1000 });
    expect(parseJsonKeepingDecimals(body, 'tickers')).toEqual({ withdrawFee: 1e-8, withdrawIntegerMultiple: 0.1, lastPrice: '2.50', quoteVolume: '1e3' });
    expect(parseJsonKeepingDecimals(body)).toEqual({ withdrawFee: '1E-8', withdrawIntegerMultiple: '0.10', lastPrice: '2.50', quoteVolume: '1e3' });
  });

  it('leaves numbers under other keys as numbers', () => {
    expect(parseJsonKeepingDecimals('{"minConfirm":12,"openTime":1700000000000,"count":3}')).toEqual({
      minConfirm: 12,
      openTime: 1700000000000,
      count: 3,
    });
  });

  it('never changes a string value, even one that looks like a decimal field', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...DECIMAL_KEYS, 'depositDesc', 'name', 'x'), fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), jsonNumberText.map((t) => `"withdrawFee":${t}`))),
        (obj) => {
          expect(parseJsonKeepingDecimals(JSON.stringify(obj))).toEqual(obj);
        },
      ),
    );
  });

  it('rejects what JSON.parse rejects', () => {
    expect(() => parseJsonKeepingDecimals('{"withdrawFee":1E-8')).toThrow(SyntaxError);
    expect(() => parseJsonKeepingDecimals('<html>')).toThrow(SyntaxError);
  });
});

describe('readDecimal', () => {
  it('accepts every decimal text as it is, unless it is too large for a number', () => {
    fc.assert(
      fc.property(jsonNumberText, (text) => {
        expect(isDecimalText(text)).toBe(true);
        expect(readDecimal(text)).toBe(Number.isFinite(Number(text)) ? text : undefined);
      }),
    );
  });

  it.each([
    ['', null],
    [null, null],
    ['+1.5', '+1.5'],
    ['.5', '.5'],
    [0.25, '0.25'],
    ['abc', undefined],
    ['1,5', undefined],
    ['NaN', undefined],
    ['Infinity', undefined],
    [true, undefined],
    [{}, undefined],
    [Number.NaN, undefined],
    ['1e400', undefined],
    ['-1e400', undefined],
    ['1E+309', undefined],
    ['9'.repeat(400), undefined],
    ['1e308', '1e308'],
    ['1e-400', '1e-400'],
    ['0.' + '0'.repeat(400) + '1', '0.' + '0'.repeat(400) + '1'],
  ])('readDecimal(%p) is %p', (input, expected) => {
    expect(readDecimal(input)).toBe(expected);
  });
});
