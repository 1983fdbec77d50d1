import fc from 'fast-check';
import { exactDecimalJson, HAS_SOURCE_TEXT, isDecimalText, readDecimal, type DecimalWay } from '../../src/exchange/decimal';
import { NETWORK_DECIMAL_KEYS, TICKER_DECIMAL_KEYS } from '../../src/exchange/dialects/spot-v3/parse';
import { renderCoinsBody, renderTickersBody } from '../../src/simulator';
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

/** A JSON text of objects whose keys may be decimal keys, values bare numbers among others, nested; keys written plainly (see DecimalWay). */
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

/** Runs only where the runtime has JSON.parse source text access (Node 22: `npm run test:node22`). */
const withSourceText = HAS_SOURCE_TEXT ? it : it.skip;

describe('the two ways of keeping exact decimals (DecimalWay)', () => {
  it('knows whether the runtime hands a reviver the source text (Node 22 and later)', () => {
    expect(HAS_SOURCE_TEXT).toBe(Number(process.versions.node.split('.')[0]) >= 22);
    if (!HAS_SOURCE_TEXT) expect(() => exactDecimalJson(['fee'], 'source-text')).toThrow(/Node 22/);
  });

  withSourceText('reads any answer as the pre-pass does, at once and in turns', async () => {
    const ways = (keys: string[]): Record<DecimalWay, ReturnType<typeof exactDecimalJson>> => ({ 'pre-pass': exactDecimalJson(keys, 'pre-pass'), 'source-text': exactDecimalJson(keys, 'source-text') });
    const json = ways(['fee', 'min']);
    await fc.assert(
      fc.asyncProperty(value, async (text) => {
        expect(json['source-text'].parse(text)).toEqual(json['pre-pass'].parse(text));
        expect(await json['source-text'].parseInTurns(`[${text}]`)).toEqual(await json['pre-pass'].parseInTurns(`[${text}]`));
      }),
      { numRuns: 3000 },
    );
  });

  withSourceText('reads the reference exchange\'s coin list and tickers as the pre-pass does', () => {
    const coins = renderCoinsBody({ coins: 300, seed: 3 });
    const tickers = renderTickersBody({ coins: 300, seed: 3, now: Date.UTC(2026, 0, 1) });
    expect(exactDecimalJson(NETWORK_DECIMAL_KEYS, 'source-text').parse(coins)).toEqual(exactDecimalJson(NETWORK_DECIMAL_KEYS, 'pre-pass').parse(coins));
    expect(exactDecimalJson(TICKER_DECIMAL_KEYS, 'source-text').parse(tickers)).toEqual(exactDecimalJson(TICKER_DECIMAL_KEYS, 'pre-pass').parse(tickers));
  });

  it('pre-pass: parsing first and the pre-pass only where a number stands under a key gives the pre-pass\'s value, and its error, for any text in any order', () => {
    const keys = ['fee', 'min'];
    const bare = new RegExp(`"(${keys.join('|')})"(\\s*:\\s*)(-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)(?=\\s*[,}\\]])`, 'g');
    const outcome = (f: () => unknown): unknown => {
      try {
        return { value: f() };
      } catch (err) {
        return { error: String(err) };
      }
    };
    // Texts whole, cut short, or with an escaped key; one parser for the whole sequence (it adapts to what it saw).
    const text = fc.tuple(value, fc.nat({ max: 3 })).map(([t, way]) => (way === 1 ? t.slice(0, Math.max(0, t.length - 2)) : way === 2 ? t.replace('"fee"', '"f\\u0065e"') : t));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 6 }), (texts) => {
        const json = exactDecimalJson(keys, 'pre-pass');
        for (const t of texts) expect(outcome(() => json.parse(t))).toEqual(outcome(() => JSON.parse(t.replace(bare, '"$1"$2"$3"'))));
      }),
      { numRuns: 3000 },
    );
  });

  it('pre-pass: a value too deep to walk is read with the pre-pass', () => {
    const deep = `${'['.repeat(20_000)}{"fee":1.50}${']'.repeat(20_000)}`;
    let v = exactDecimalJson(['fee'], 'pre-pass').parse(deep);
    for (let i = 0; i < 20_000; i++) v = (v as unknown[])[0];
    expect(v).toEqual({ fee: '1.50' });
  });

  it('differs only for a key written with an escape: the pre-pass does not see it', () => {
    const text = '{"f\\u0065e":1E-8}';
    expect(exactDecimalJson(['fee'], 'pre-pass').parse(text)).toEqual({ fee: 1e-8 });
    if (HAS_SOURCE_TEXT) expect(exactDecimalJson(['fee'], 'source-text').parse(text)).toEqual({ fee: '1E-8' });
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
