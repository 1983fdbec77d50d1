import { everyNetwork, rollingWindow, specSymbol } from '../../src/exchange/derived';
import { hmacSha256, queryOf, withQuery } from '../../src/exchange/hmac';

/** dialects.md section 1, rules 4 (coin flags), 6 (symbols) and 7 (window); the decimals of rule 3 are derived-decimals.test.ts's. */
describe('derived flags, symbols and windows', () => {
  it('writes symbols in the spec\'s style and derives the 24 h window', () => {
    expect(['BTC-USDT', 'BTC_USDT', 'btcusdt', 'ETH-BTC', 'a/b'].map(specSymbol)).toEqual(['BTCUSDT', 'BTCUSDT', 'BTCUSDT', 'ETHBTC', 'AB']);
    expect(rollingWindow(1597026383085)).toEqual({ openTime: 1596939983085, closeTime: 1597026383085 });
    expect(rollingWindow(null)).toEqual({ openTime: null, closeTime: null });
  });

  it('derives a coin flag true iff it has a network and every one is open', () => {
    const n = (depositEnable: boolean) => ({ depositEnable, withdrawEnable: true });
    expect([everyNetwork([n(true), n(true)], 'depositEnable'), everyNetwork([n(true), n(false)], 'depositEnable'), everyNetwork([], 'depositEnable')]).toEqual([true, false, false]);
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
