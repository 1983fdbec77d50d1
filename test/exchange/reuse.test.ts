import fc from 'fast-check';
import { validateCoins, validateTickers } from '../../src/exchange/validate';
import type { CoinRecord, TickerRecord } from '../../src/snapshot/model';

/**
 * Reuse of previous records (validateCoins/validateTickers with `previous`): the records are
 * exactly what validation without it gives, and an unchanged record is its previous object.
 */

// Raw field values a real exchange (or a broken one) may send.
const text = fc.constantFrom<unknown>('1', '1.0', '0.5', '1E-8', '', 'abc', null, undefined, 1, 0.5, true, 'true', '<b>x</b>');
const flag = fc.constantFrom<unknown>(true, false, 'true', 'false', null, undefined, 1, 'yes');
const int = fc.constantFrom<unknown>(12, 0, -1, '12', 1.5, null, undefined, 'x', 2 ** 60, 2 ** 53 - 1, String(2 ** 53 - 1));
const name = fc.constantFrom<unknown>('BTC', 'ETH', '', null, undefined, 7);

const rawNetwork = fc.record({
  network: fc.constantFrom<unknown>('BTC', 'ERC20', 'TRC20', '', null, 5),
  coin: name,
  name,
  isDefault: flag,
  depositEnable: flag,
  withdrawEnable: flag,
  withdrawFee: text,
  withdrawMin: text,
  withdrawInternalMin: text,
  withdrawIntegerMultiple: text,
  minConfirm: int,
  withdrawTag: flag,
  depositDust: text,
  contractAddress: name,
  contractAddressUrl: name,
  depositDesc: text,
  withdrawDesc: text,
});

const rawCoin = fc.record({
  coin: fc.constantFrom('BTC', 'ETH'),
  name,
  depositAllEnable: flag,
  withdrawAllEnable: flag,
  networkList: fc.array(rawNetwork, { maxLength: 3 }),
});

const rawTicker = fc.record({
  symbol: fc.constantFrom('BTCUSDT', 'ETHUSDT'),
  priceChange: text, priceChangePercent: text, lastPrice: text, bidPrice: text, bidQty: text, askPrice: text,
  askQty: text, openPrice: text, highPrice: text, lowPrice: text, volume: text, quoteVolume: text,
  openTime: int, closeTime: int, count: int,
});

/** One field of a record changed to another value of its kind (or left as it is). */
function mutate<T extends Record<string, unknown>>(record: T, key: keyof T, value: unknown): T {
  return { ...record, [key]: value };
}

describe('reuse of previous records', () => {
  it('validateCoins: the same records as without reuse; unchanged coins are their previous objects', () => {
    fc.assert(
      fc.property(fc.array(rawCoin, { maxLength: 3 }), fc.array(rawCoin, { maxLength: 3 }), (before, after) => {
        const previous = new Map<string, CoinRecord>(validateCoins(before).records.map((c) => [c.coin, c]));
        const plain = validateCoins(after);
        const reused = validateCoins(after, previous);
        expect(reused).toEqual(plain);
        // The same answer again: every coin read without an issue is its previous object.
        const again = validateCoins(structuredClone(before), previous);
        for (const r of again.records) {
          if (!again.issues.some((i) => i.coin === r.coin)) expect(r).toBe(previous.get(r.coin));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('validateCoins: any single field changed is seen, whatever its kind', () => {
    fc.assert(
      fc.property(rawNetwork, fc.constantFrom(...(['network', 'name', 'isDefault', 'depositEnable', 'withdrawEnable', 'withdrawFee', 'withdrawMin', 'withdrawInternalMin', 'withdrawIntegerMultiple', 'minConfirm', 'withdrawTag', 'depositDust', 'contractAddress', 'contractAddressUrl', 'depositDesc', 'withdrawDesc'] as const)), fc.oneof(text, flag, int, name), (network, key, value) => {
        const before = [{ coin: 'BTC', networkList: [network] }];
        const after = [{ coin: 'BTC', networkList: [mutate(network, key, value)] }];
        const previous = new Map(validateCoins(before).records.map((c) => [c.coin, c]));
        expect(validateCoins(after, previous)).toEqual(validateCoins(after));
      }),
      { numRuns: 3000 },
    );
  });

  it('validateTickers: the same records as without reuse; unchanged tickers are their previous objects', () => {
    fc.assert(
      fc.property(fc.array(rawTicker, { maxLength: 3 }), fc.array(rawTicker, { maxLength: 3 }), (before, after) => {
        const previous = new Map<string, TickerRecord>(validateTickers(before).records.map((t) => [t.symbol, t]));
        const plain = validateTickers(after);
        const reused = validateTickers(after, previous);
        expect(reused).toEqual(plain);
        // The same answer again: every ticker is its previous object.
        for (const r of validateTickers(structuredClone(before), previous).records) expect(r).toBe(previous.get(r.symbol));
      }),
      { numRuns: 2000 },
    );
  });

  it('reuses across a real answer: an unchanged coin list gives back every previous object', () => {
    const answer = [
      { coin: 'BTC', name: 'Bitcoin', depositAllEnable: true, withdrawAllEnable: false, networkList: [
        { network: 'BTC', coin: 'BTC', name: 'Bitcoin', isDefault: true, depositEnable: true, withdrawEnable: false, withdrawFee: '0.0005', withdrawMin: '0.001', withdrawInternalMin: null, withdrawIntegerMultiple: '1E-8', minConfirm: 2, withdrawTag: false, depositDust: '0.00001', contractAddress: '', contractAddressUrl: '', depositDesc: null, withdrawDesc: 'Wallet maintenance' },
      ] },
    ];
    const first = validateCoins(answer).records;
    const second = validateCoins(structuredClone(answer), new Map(first.map((c) => [c.coin, c]))).records;
    expect(second[0]).toBe(first[0]);
    const changed = structuredClone(answer);
    (changed[0]?.networkList[0] as { withdrawDesc: string | null }).withdrawDesc = null;
    const third = validateCoins(changed, new Map(first.map((c) => [c.coin, c]))).records;
    expect(third[0]).not.toBe(first[0]);
    expect(third[0]?.networkList[0]?.withdrawDesc).toBeNull();
  });
});
