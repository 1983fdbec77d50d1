import { decodeCoins, decodeTickers, parseJsonKeepingDecimals } from '../../../../src/exchange/dialects/spot-v3/decode';
import { Refused } from '../../../../src/exchange/dialect';
import { ShapeError } from '../../../../src/exchange/read';
import { coinRecord, tickerRecord } from '../../../support/records';

const wireNetwork = {
  network: 'Tron(TRC20)',
  coin: 'USDT',
  name: 'Tron (TRC20)',
  isDefault: true,
  depositEnable: true,
  withdrawEnable: false,
  withdrawFee: '1',
  withdrawMin: '10',
  withdrawInternalMin: null,
  withdrawIntegerMultiple: '1E-8',
  minConfirm: 20,
  withdrawTag: false,
  depositDust: '0.0001',
  contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  contractAddressUrl: 'https://tronscan.org/#/token20/',
  depositDesc: null,
  withdrawDesc: 'Wallet maintenance',
};

describe('decodeCoins', () => {
  it('reads every field of a coin and its networks by the spec names', () => {
    const body = [{ coin: 'USDT', name: 'Tether', depositAllEnable: true, withdrawAllEnable: false, networkList: [wireNetwork] }];
    expect(decodeCoins(body)).toEqual({
      records: [{ coin: 'USDT', name: 'Tether', depositAllEnable: true, withdrawAllEnable: false, networkList: [wireNetwork] }],
      issues: [],
    });
  });

  it('keeps the exact text of withdrawIntegerMultiple whether it came as a number or as a string', () => {
    const text = `[{"coin":"A","networkList":[{"network":"N1","depositEnable":true,"withdrawEnable":true,"withdrawIntegerMultiple":1E-8},
      {"network":"N2","depositEnable":true,"withdrawEnable":true,"withdrawIntegerMultiple":"1"}]}]`;
    const { records, issues } = decodeCoins(parseJsonKeepingDecimals(text));
    expect(issues).toEqual([]);
    expect(records[0]?.networkList.map((n) => n.withdrawIntegerMultiple)).toEqual(['1E-8', '1']);
  });

  it('fills what the exchange left out with null, and derives the all-flags when absent', () => {
    const { records } = decodeCoins([{ coin: 'A', networkList: [{ network: 'N', depositEnable: false, withdrawEnable: true }] }]);
    expect(records).toEqual([
      {
        coin: 'A',
        name: null,
        depositAllEnable: false,
        withdrawAllEnable: true,
        networkList: [
          {
            network: 'N', coin: 'A', name: null, isDefault: null, depositEnable: false, withdrawEnable: true,
            withdrawFee: null, withdrawMin: null, withdrawInternalMin: null, withdrawIntegerMultiple: null,
            minConfirm: null, withdrawTag: null, depositDust: null, contractAddress: null, contractAddressUrl: null,
            depositDesc: null, withdrawDesc: null,
          },
        ],
      },
    ]);
  });

  it('isolates malformed records and keeps the good ones', () => {
    const good = coinRecord('BTC', [{ network: 'BTC' }]);
    const body = [
      good,
      'USDT',
      { coin: 'ETH', networkList: [{ network: 'ETH', depositEnable: 'yes', withdrawEnable: true }, { depositEnable: true, withdrawEnable: true }, { ...wireNetwork, coin: 'ETH', network: 'ERC20' }] },
      { name: 'no key', networkList: [] },
      { coin: 'SOL', networkList: 'none' },
      { coin: 'BTC', networkList: [] },
      { coin: 'TRX', networkList: [{ network: 'TRX', depositEnable: true, withdrawEnable: true, withdrawFee: 'free' }, { network: 'TRX', depositEnable: true, withdrawEnable: true, minConfirm: 1.5 }] },
    ];
    const { records, issues } = decodeCoins(body);
    // BTC came twice, the copies disagreeing: neither is taken (the previous value will be kept).
    expect(records.map((c) => [c.coin, c.networkList.map((n) => n.network)])).toEqual([
      ['ETH', ['ERC20']],
      ['TRX', []],
    ]);
    expect(issues).toEqual([
      { entity: 'coin', index: 1, reason: 'coin is a string, not an object' },
      { entity: 'network', coin: 'ETH', network: 'ETH', index: 0, reason: 'depositEnable is not a boolean' },
      { entity: 'network', coin: 'ETH', index: 1, reason: 'network is missing' },
      { entity: 'coin', index: 3, reason: 'coin is missing' },
      { entity: 'coin', coin: 'SOL', index: 4, reason: 'networkList is not a list' },
      { entity: 'coin', coin: 'BTC', index: 5, reason: 'coin appears twice in the list with different values' },
      { entity: 'network', coin: 'TRX', network: 'TRX', index: 0, reason: 'withdrawFee is not a decimal' },
      { entity: 'network', coin: 'TRX', network: 'TRX', index: 1, reason: 'minConfirm is not an integer' },
    ]);
  });

  it('says the issues of a malformed coin\'s networks before its own', () => {
    const body = [{ coin: 'X', name: 7, networkList: [{ network: 'N', depositEnable: 'no', withdrawEnable: true }] }];
    expect(decodeCoins(body).issues).toEqual([
      { entity: 'network', coin: 'X', network: 'N', index: 0, reason: 'depositEnable is not a boolean' },
      { entity: 'coin', coin: 'X', index: 0, reason: 'name is not a string' },
    ]);
  });

  it('copies fields into fresh objects, so hostile keys reach nothing', () => {
    const body = JSON.parse('[{"coin":"A","__proto__":{"polluted":true},"constructor":"x","networkList":[{"network":"N","depositEnable":true,"withdrawEnable":true,"__proto__":{"isDefault":true}}]}]') as unknown;
    const { records } = decodeCoins(body);
    expect(Object.getPrototypeOf(records[0])).toBe(Object.prototype);
    expect(records[0]?.networkList[0]?.isDefault).toBe(null);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    [{ code: '200', msg: 'success', data: null }, 'coins: expected a list, got an error envelope'],
    [null, 'coins: expected a list, got null'],
    ['[]', 'coins: expected a list, got a string'],
    [{ coins: [] }, 'coins: expected a list, got an object'],
  ])('rejects an answer of the wrong shape: %p', (body, message) => {
    expect(() => decodeCoins(body)).toThrow(new ShapeError(message));
  });

  it('reads an error envelope as the exchange refusing, with its code and message (a rate-limit code asks for a pause)', () => {
    expect(() => decodeCoins({ code: -1003, msg: 'Too much request weight used' })).toThrow(Refused);
    const refusal = (body: unknown): unknown => {
      try {
        decodeCoins(body);
      } catch (err) {
        return err instanceof Refused ? err.refusal : err;
      }
      return undefined;
    };
    expect(refusal({ code: -1003, msg: 'Too much request weight used' })).toEqual({ code: '-1003', msg: 'Too much request weight used', pause: 'rate_limited' });
    expect(refusal({ code: '-1121', msg: 'Invalid symbol.' })).toEqual({ code: '-1121', msg: 'Invalid symbol.' });
  });

  it('reads the list inside a {code, msg, data: [...]} envelope', () => {
    const coin = coinRecord('A', [{ network: 'N' }]);
    expect(decodeCoins({ code: '200', msg: 'success', data: [coin] }).records).toEqual([coin]);
  });
});

describe('decodeTickers', () => {
  const ticker = tickerRecord('BTCUSDT');

  it('reads a single object, a one-element array and a list alike', () => {
    expect(decodeTickers(ticker)).toEqual({ records: [ticker], issues: [] });
    expect(decodeTickers([ticker])).toEqual({ records: [ticker], issues: [] });
  });

  it('accepts integer fields sent as digit strings', () => {
    const { records } = decodeTickers([{ ...ticker, openTime: '1700000000000', count: '42' }]);
    expect(records).toEqual([ticker]);
  });

  it('isolates malformed tickers', () => {
    const { records, issues } = decodeTickers([
      { ...ticker, lastPrice: null },
      { ...ticker, symbol: 'ETHUSDT', openTime: 'yesterday' },
      { lastPrice: '1' },
      7,
      tickerRecord('SOLUSDT'),
    ]);
    expect(records.map((t) => t.symbol)).toEqual(['SOLUSDT']);
    expect(issues).toEqual([
      { entity: 'ticker', symbol: 'BTCUSDT', index: 0, reason: 'lastPrice is missing' },
      { entity: 'ticker', symbol: 'ETHUSDT', index: 1, reason: 'openTime is not an integer' },
      { entity: 'ticker', index: 2, reason: 'symbol is missing' },
      { entity: 'ticker', index: 3, reason: 'ticker is a number, not an object' },
    ]);
  });
});
