import fc from 'fast-check';
import { parseJsonKeepingDecimals } from '../../../../src/exchange/dialects/spot-v3/decode';
import { DECIMAL_KEYS } from '../../../../src/exchange/dialects/spot-v3/wire';
import { jsonNumberText } from '../../../support/json-number';

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
