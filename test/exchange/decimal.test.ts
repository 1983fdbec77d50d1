import fc from 'fast-check';
import { exactDecimalJson, isDecimalText, readDecimal } from '../../src/exchange/decimal';
import { jsonNumberText } from '../support/json-number';

describe('exactDecimalJson', () => {
  it('keeps the exact text of bare numbers under the keys it is given, and only those', () => {
    const json = exactDecimalJson(['close', 'vol']);
    const text = '{"data":[{"close":8988.0,"vol":2.3822168242201668E8,"count":12,"open":1.0712E-5}]}';
    expect(json.parse(text)).toEqual({ data: [{ close: '8988.0', vol: '2.3822168242201668E8', count: 12, open: 1.0712e-5 }] });
  });

  it('reads in turns what it reads at once', async () => {
    const json = exactDecimalJson(['fee']);
    const text = JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ id: i, fee: `${i}.50` }))).replace(/"(\d+\.50)"/g, '$1');
    expect(await json.parseInTurns(text)).toEqual(json.parse(text));
    expect((json.parse(text) as { fee: string }[])[3]?.fee).toBe('3.50');
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
