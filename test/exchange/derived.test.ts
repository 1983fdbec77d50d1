import { everyNetwork, rollingWindow, specSymbol } from '../../src/exchange/derived';

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

