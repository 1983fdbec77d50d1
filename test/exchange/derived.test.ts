import { changeRatio, difference, percentToRatio, rollingWindow, specSymbol, tenToMinus } from '../../src/exchange/derived';
import { hmacSha256, queryOf, withQuery } from '../../src/exchange/hmac';

/** dialects.md section 1, rule 3 (derived decimals), 6 (symbols) and 7 (window), with its own examples. */
describe('derived decimals', () => {
  it.each([
    ['67400', '597.9', '66802.1'],
    ['1.0712E-5', '1.0503E-5', '0.000000209'],
    ['20533.13', '20393.48', '139.65'],
    ['9000', '9999.99', '-999.99'],
    ['1.50', '1.5', '0'],
    ['-0.5', '-0.5', '0'],
    ['1e3', '0.001', '999.999'],
  ])('%s − %s = %s, exactly, in plain notation', (a, b, out) => {
    expect(difference(a, b)).toBe(out);
  });

  it.each([
    ['-1.18', '-0.0118'],
    ['-0.159', '-0.00159'],
    ['0.000', '0'],
    ['-95.960', '-0.9596'],
    ['12', '0.12'],
    ['150', '1.5'],
  ])('percentage %s is the ratio %s', (p, r) => {
    expect(percentToRatio(p)).toBe(r);
  });

  it.each([
    ['8', '0.00000001'],
    ['4', '0.0001'],
    ['0', '1'],
    [2, '0.01'],
  ] as const)('10^-%s is %s', (n, out) => {
    expect(tenToMinus(n)).toBe(out);
  });

  it('refuses a count of places that is no integer, as a field of the record', () => {
    expect(() => tenToMinus('1.5')).toThrow('a count of decimal places is not an integer');
    expect(() => tenToMinus('-1')).toThrow('a count of decimal places is not an integer');
  });

  it.each([
    ['2.3909', '2.3938', '-0.00121146'],
    ['9999.99', '9000', '0.11111'],
    ['1', '3', '-0.66666667'],
    ['2', '3', '-0.33333333'],
    ['1.000000005', '1', '0.00000001'],
    ['0.999999995', '1', '-0.00000001'],
    ['5', '5', '0'],
  ])('(%s − %s) / %s rounds half away from zero to 8 places: %s', (last, open, out) => {
    expect(changeRatio(last, open)).toBe(out);
  });

  it('has no ratio from an open of zero', () => {
    expect(changeRatio('1', '0')).toBeNull();
  });

  it('writes symbols in the spec\'s style and derives the 24 h window', () => {
    expect(['BTC-USDT', 'BTC_USDT', 'btcusdt', 'ETH-BTC', 'a/b'].map(specSymbol)).toEqual(['BTCUSDT', 'BTCUSDT', 'BTCUSDT', 'ETHBTC', 'AB']);
    expect(rollingWindow(1597026383085)).toEqual({ openTime: 1596939983085, closeTime: 1597026383085 });
    expect(rollingWindow(null)).toEqual({ openTime: null, closeTime: null });
  });
});

describe('hmac', () => {
  it('gives RFC 4231 test case 2 in hex and base64', () => {
    const hex = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
    expect(hmacSha256('Jefe', 'what do ya want for nothing?', 'hex')).toBe(hex);
    expect(hmacSha256('Jefe', 'what do ya want for nothing?', 'base64')).toBe(Buffer.from(hex, 'hex').toString('base64'));
  });

  it('appends a query and reads one back', () => {
    expect(withQuery('/a', 'x=1')).toBe('/a?x=1');
    expect(withQuery('/a?y=2', 'x=1')).toBe('/a?y=2&x=1');
    expect(withQuery('/a', '')).toBe('/a');
    expect(queryOf('/a?y=2&x=1')).toBe('y=2&x=1');
    expect(queryOf('/a')).toBe('');
  });
});
