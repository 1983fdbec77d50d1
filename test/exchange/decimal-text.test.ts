import fc from 'fast-check';
import { exactDecimalJson, InvalidJson, isDecimalText, parseJson, readDecimal } from '../../src/exchange/decimal-text';
import { NETWORK_DECIMAL_KEYS, TICKER_DECIMAL_KEYS } from '../../src/exchange/dialects/spot-v3/wire';
import { renderCoinsBody, renderTickersBody } from '../../src/simulator';
import { jsonNumberText } from '../support/json-number';

describe('exactDecimalJson', () => {
  it.each(['rare', 'usual'] as const)('%s: keeps the exact text of bare numbers under the keys it is given, and only those', (bare) => {
    const parse = exactDecimalJson(['close', 'vol'], bare);
    const text = '{"data":[{"close":8988.0,"vol":2.3822168242201668E8,"count":12,"open":1.0712E-5}]}';
    expect(parse(text)).toEqual({ data: [{ close: '8988.0', vol: '2.3822168242201668E8', count: 12, open: 1.0712e-5 }] });
  });

  it.each(['rare', 'usual'] as const)('%s: a text that is not JSON is InvalidJson, with JSON.parse\'s message', (bare) => {
    const text = '{"close":8988.0';
    let message = '';
    try {
      JSON.parse(text);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(() => exactDecimalJson(['close'], bare)(text)).toThrow(InvalidJson);
    expect(() => exactDecimalJson(['close'], bare)(text)).toThrow(message);
    expect(() => parseJson('<html>')).toThrow(InvalidJson);
  });
});

/** A JSON text of objects whose keys may be decimal keys, values bare numbers among others, nested; keys written plainly. */
const KEYS = ['fee', 'min', 'count', 'name', 'data'];
const value: fc.Arbitrary<string> = fc.letrec<{ v: string }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonNumberText,
    fc.string({ maxLength: 6 }).map((t) => JSON.stringify(t)),
    fc.constantFrom('null', 'true', 'false', '"1E-8"', '""'),
    fc.array(fc.tuple(fc.constantFrom(...KEYS), tie('v'), fc.constantFrom('', ' ', '\n ')), { maxLength: 4 }).map((members) => `{${members.map(([k, v, sp]) => `"${k}":${sp}${v}`).join(',')}}`),
    fc.array(tie('v'), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
  ),
})).v;

describe('the pre-pass, at once or where the parse shows it is needed (BareDecimals)', () => {
  it.each(['rare', 'usual'] as const)('%s: the pre-pass\'s value, and its error, for any text in any order (no state kept between texts)', (bare) => {
    const keys = ['fee', 'min'];
    const pattern = new RegExp(`"(${keys.join('|')})"(\\s*:\\s*)(-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)(?=\\s*[,}\\]])`, 'g');
    const outcome = (f: () => unknown): unknown => {
      try {
        return { value: f() };
      } catch (err) {
        return { error: (err as Error).message };
      }
    };
    // Texts whole, cut short, or with an escaped key; one parser for the whole sequence.
    const text = fc.tuple(value, fc.nat({ max: 3 })).map(([t, way]) => (way === 1 ? t.slice(0, Math.max(0, t.length - 2)) : way === 2 ? t.replace('"fee"', '"f\\u0065e"') : t));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 6 }), (texts) => {
        const parse = exactDecimalJson(keys, bare);
        for (const t of texts) expect(outcome(() => parse(t))).toEqual(outcome(() => JSON.parse(t.replace(pattern, '"$1"$2"$3"'))));
      }),
      { numRuns: 3000 },
    );
  });

  it('rare: a value too deep to walk is read with the pre-pass', () => {
    const deep = `${'['.repeat(20_000)}{"fee":1.50}${']'.repeat(20_000)}`;
    let v = exactDecimalJson(['fee'])(deep);
    for (let i = 0; i < 20_000; i++) v = (v as unknown[])[0];
    expect(v).toEqual({ fee: '1.50' });
  });

  it('does not see a key written with an escape: its number reads as a number', () => {
    const text = '{"f\\u0065e":1E-8}';
    expect(exactDecimalJson(['fee'])(text)).toEqual({ fee: 1e-8 });
    expect(exactDecimalJson(['fee'], 'usual')(text)).toEqual({ fee: 1e-8 });
  });

  it('reads the reference exchange\'s coin list and tickers with their decimals as sent', () => {
    const coins = renderCoinsBody({ coins: 300, seed: 3 });
    const tickers = renderTickersBody({ coins: 300, seed: 3, now: Date.UTC(2026, 0, 1) });
    for (const bare of ['rare', 'usual'] as const) {
      const read = exactDecimalJson(NETWORK_DECIMAL_KEYS, bare)(coins) as { networkList: { withdrawIntegerMultiple: unknown }[] }[];
      expect(read.flatMap((c) => c.networkList.map((n) => typeof n.withdrawIntegerMultiple))).not.toContain('number');
      expect(exactDecimalJson(TICKER_DECIMAL_KEYS, bare)(tickers)).toEqual(JSON.parse(tickers));
    }
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
