import fc from 'fast-check';
import { decodeCoins, decodeTickers } from '../../../../src/exchange/dialects/spot-v3/decode';
import { COIN_FIELDS, fieldsOf, keysOf, NETWORK_FIELDS, TICKER_FIELDS, type FieldSpec, type FieldType } from '../../../../src/snapshot/fields';
import type { CoinRecord, TickerRecord } from '../../../../src/snapshot/model';

/**
 * Reuse of previous records (decodeCoins/decodeTickers with `previous`): the records are
 * exactly what validation without it gives, and an unchanged record is its previous object.
 */

// Raw field values a real exchange (or a broken one) may send.
// Past the cap of upstream text, a text that is that one already cut, and a lone surrogate (lib/upstream-text.ts).
const LONG = 'L'.repeat(1200);
const hostile = ['x\ud800', LONG, `${LONG.slice(0, 1000)}… [cut 200 characters]`];
const text = fc.constantFrom<unknown>('1', '1.0', '0.5', '1E-8', '', 'abc', null, undefined, 1, 0.5, true, 'true', '<b>x</b>', ...hostile);
const flag = fc.constantFrom<unknown>(true, false, 'true', 'false', null, undefined, 1, 'yes');
const int = fc.constantFrom<unknown>(12, 0, -1, '12', 1.5, null, undefined, 'x', 2 ** 60, 2 ** 53 - 1, String(2 ** 53 - 1));
const name = fc.constantFrom<unknown>('BTC', 'ETH', '', null, undefined, 7);

/** Raw values of a field of the given type (a text field takes any text or name value). */
const RAW: Record<FieldType, fc.Arbitrary<unknown>> = {
  key: fc.constantFrom<unknown>('BTC', 'ERC20', 'TRC20', '', null, 5, ...hostile),
  parent: name,
  text: fc.oneof(text, name),
  flag,
  decimal: text,
  int,
  networks: fc.constant([]),
};

/** A raw record with every field of the list (from snapshot/fields.ts: a new field is fuzzed too). */
function rawRecord(list: Record<string, FieldSpec>, over: Record<string, fc.Arbitrary<unknown>> = {}): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(Object.fromEntries(fieldsOf(list).map(([k, f]) => [k, over[k] ?? RAW[f.type]])));
}

const rawNetwork = rawRecord(NETWORK_FIELDS);
const rawCoin = rawRecord(COIN_FIELDS, { coin: fc.constantFrom('BTC', 'ETH'), networkList: fc.array(rawNetwork, { maxLength: 3 }) });
const rawTicker = rawRecord(TICKER_FIELDS, { symbol: fc.constantFrom('BTCUSDT', 'ETHUSDT') });

/** One field of a record changed to another value of its kind (or left as it is). */
function mutate<T extends Record<string, unknown>>(record: T, key: keyof T, value: unknown): T {
  return { ...record, [key]: value };
}

describe('reuse of previous records', () => {
  it('decodeCoins: the same records as without reuse; unchanged coins are their previous objects', () => {
    fc.assert(
      fc.property(fc.array(rawCoin, { maxLength: 3 }), fc.array(rawCoin, { maxLength: 3 }), (before, after) => {
        const previous = new Map<string, CoinRecord>(decodeCoins(before).records.map((c) => [c.coin, c]));
        const plain = decodeCoins(after);
        const reused = decodeCoins(after, previous);
        expect(reused).toEqual(plain);
        // The same answer again: every coin read without an issue is its previous object.
        const again = decodeCoins(structuredClone(before), previous);
        for (const r of again.records) {
          if (!again.issues.some((i) => i.coin === r.coin)) expect(r).toBe(previous.get(r.coin));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('decodeCoins: any single field changed is seen, whatever its kind', () => {
    fc.assert(
      fc.property(rawNetwork, fc.constantFrom(...keysOf(NETWORK_FIELDS)), fc.oneof(text, flag, int, name), (network, key, value) => {
        const before = [{ coin: 'BTC', networkList: [network] }];
        const after = [{ coin: 'BTC', networkList: [mutate(network, key, value)] }];
        const previous = new Map(decodeCoins(before).records.map((c) => [c.coin, c]));
        expect(decodeCoins(after, previous)).toEqual(decodeCoins(after));
      }),
      { numRuns: 3000 },
    );
  });

  it('decodeTickers: the same records as without reuse; unchanged tickers are their previous objects', () => {
    fc.assert(
      fc.property(fc.array(rawTicker, { maxLength: 3 }), fc.array(rawTicker, { maxLength: 3 }), (before, after) => {
        const previous = new Map<string, TickerRecord>(decodeTickers(before).records.map((t) => [t.symbol, t]));
        const plain = decodeTickers(after);
        const reused = decodeTickers(after, previous);
        expect(reused).toEqual(plain);
        // The same answer again: every ticker is its previous object.
        for (const r of decodeTickers(structuredClone(before), previous).records) expect(r).toBe(previous.get(r.symbol));
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
    const first = decodeCoins(answer).records;
    const second = decodeCoins(structuredClone(answer), new Map(first.map((c) => [c.coin, c]))).records;
    expect(second[0]).toBe(first[0]);
    const changed = structuredClone(answer);
    (changed[0]?.networkList[0] as { withdrawDesc: string | null }).withdrawDesc = null;
    const third = decodeCoins(changed, new Map(first.map((c) => [c.coin, c]))).records;
    expect(third[0]).not.toBe(first[0]);
    expect(third[0]?.networkList[0]?.withdrawDesc).toBeNull();
  });
});
