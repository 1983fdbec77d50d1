import { changeRatio, difference, nonZero, percentAsRatio, rollingWindow, specSymbol, stepOfPlaces, stepOfSentPlaces } from '../../src/exchange/derive';

/** dialects.md section 1, rule 3: derived decimals, exact, in plain notation (every dialect's, one table). */
describe('derived decimals', () => {
  it.each([
    ['67400', '597.9', '66802.1'],
    ['1.0712E-5', '1.0503E-5', '0.000000209'],
    ['67193', '-98.5', '67291.5'],
    ['37583.69', '37202.46', '381.23'],
    ['2.3909', '2.3938', '-0.0029'],
    ['1.50', '1.5', '0'],
    ['-0.0', '0', '0'],
    ['2.3822168242201668E8', '0', '238221682.42201668'],
    ['8988.0', '8988', '0'],
    ['1E+3', '1', '999'],
    ['20533.13', '20393.48', '139.65'],
    ['9000', '9999.99', '-999.99'],
    ['-0.5', '-0.5', '0'],
    ['1e3', '0.001', '999.999'],
  ])('%s − %s = %s', (a, b, c) => {
    expect(difference(a, b)).toBe(c);
  });

  it('derives nothing from what is absent or not a decimal', () => {
    expect([difference(null, '1'), difference('1', null), difference('abc', '1'), difference('1e999', '1')]).toEqual([null, null, null, null]);
  });

  it.each([
    ['-1.18', '-0.0118'],
    ['-0.159', '-0.00159'],
    ['0.000', '0'],
    ['12', '0.12'],
    ['150', '1.5'],
    ['1.5E1', '0.15'],
    ['-95.960', '-0.9596'],
  ])('the percentage %s is the ratio %s', (p, r) => {
    expect(percentAsRatio(p)).toBe(r);
  });

  it.each([
    ['8', '0.00000001'],
    ['4', '0.0001'],
    ['0', '1'],
    [6, '0.000001'],
    ['-1', null],
    ['1.5', null],
    [null, null],
    [undefined, null],
    [2, '0.01'],
  ])('10^-%s is %s', (n, step) => {
    expect(stepOfPlaces(n)).toBe(step);
  });

  it('reads a sent precision field: absent or "" is null, a count of places its step, anything else a malformed record', () => {
    expect([stepOfSentPlaces(null), stepOfSentPlaces(''), stepOfSentPlaces('8'), stepOfSentPlaces('0')]).toEqual([null, null, '0.00000001', '1']);
    expect(() => stepOfSentPlaces('1.5')).toThrow('a count of decimal places is not an integer');
    expect(() => stepOfSentPlaces('-1')).toThrow('a count of decimal places is not an integer');
  });

  it.each([
    ['2.3909', '2.3938', '-0.00121146'],
    ['9146.86', '9078.95', '0.00747994'],
    ['2', '1', '1'],
    ['1', '1', '0'],
    // Half away from zero: 1/8 = 0.125 at 8 places is exact; 1/3 rounds down, 2/3 up.
    ['1.00000001', '3', '-0.66666666'],
    ['1.00000002', '3', '-0.66666666'],
    ['4', '3', '0.33333333'],
    ['5', '3', '0.66666667'],
    ['0.000000015', '1', '-0.99999999'],
    ['-5', '-3', '0.66666667'],
    ['9999.99', '9000', '0.11111'],
    ['1', '3', '-0.66666667'],
    ['2', '3', '-0.33333333'],
    ['1.000000005', '1', '0.00000001'],
    ['0.999999995', '1', '-0.00000001'],
    ['5', '5', '0'],
  ])('(%s − %s) / %s rounds half away from zero to 8 places: %s', (a, b, r) => {
    expect(changeRatio(a, b)).toBe(r);
  });

  it('gives no ratio against zero or without both values', () => {
    expect([changeRatio('1', '0'), changeRatio('1', '0.000'), changeRatio(null, '1'), changeRatio('1', null)]).toEqual([null, null, null, null]);
  });

  it.each([
    ['0', false],
    ['0.0', false],
    ['0E-8', false],
    ['0.01', true],
    [null, false],
  ])('%s is not zero: %s', (t, z) => {
    expect(nonZero(t)).toBe(z);
  });
});

/** dialects.md section 1, rules 6 (symbols) and 7 (window); rule 4 (coin flags) is mapped.test.ts's. */
describe('derived symbols and windows', () => {
  it('writes symbols in the spec\'s style and derives the 24 h window', () => {
    expect(['BTC-USDT', 'BTC_USDT', 'btcusdt', 'ETH-BTC', 'a/b'].map(specSymbol)).toEqual(['BTCUSDT', 'BTCUSDT', 'BTCUSDT', 'ETHBTC', 'AB']);
    expect(rollingWindow(1597026383085)).toEqual({ openTime: 1596939983085, closeTime: 1597026383085 });
    expect(rollingWindow(null)).toEqual({ openTime: null, closeTime: null });
  });
});
