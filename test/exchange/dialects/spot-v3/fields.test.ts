import { decodeCoins, decodeTickers } from '../../../../src/exchange/dialects/spot-v3/decode';
import { NETWORK_FIELD_NAMES, TICKER_FIELD_NAMES } from '../../../../src/exchange/dialects/spot-v3/wire';
import { COIN_FIELDS, keysOf, NETWORK_FIELDS, TICKER_FIELDS } from '../../../../src/snapshot/fields';
import type { CoinRecord, NetworkRecord, TickerRecord } from '../../../../src/snapshot/model';
import { OTHER_COIN_VALUE, OTHER_NETWORK_VALUE, OTHER_TICKER_VALUE } from '../../../support/field-values';
import { coinRecord, tickerRecord } from '../../../support/records';

/**
 * spot-v3 reads and reuses records from the field lists: every field of the model is read from
 * the wire field of its name, and a raw record that differs from the previous one in any field
 * is read afresh, never taken for the previous object.
 */

const byKey = <T>(records: T[], key: (r: T) => string): Map<string, T> => new Map(records.map((r) => [key(r), r]));

describe('the spot-v3 wire', () => {
  it('has one field per line of the network and ticker field lists, in their order', () => {
    expect(NETWORK_FIELD_NAMES).toEqual(keysOf(NETWORK_FIELDS));
    expect(TICKER_FIELD_NAMES).toEqual(keysOf(TICKER_FIELDS));
  });
});

describe('every network field', () => {
  const coin = coinRecord('USDT', [{ network: 'TRX', isDefault: false }, { network: 'ETH', isDefault: true }]);
  const previous = byKey(decodeCoins([coin]).records, (c) => c.coin);

  it('reads a coin sent with the model\'s own field names as exactly that coin', () => {
    expect(decodeCoins([coin])).toEqual({ records: [coin], issues: [] });
  });

  it.each(keysOf(NETWORK_FIELDS))('%s: read from the wire, and a change of it is never taken for the previous coin', (key) => {
    const raw = { ...coin, networkList: [{ ...coin.networkList[0], [key]: OTHER_NETWORK_VALUE[key] }, coin.networkList[1]] };
    // The network's own `coin` repeats its parent: the parent is what the record holds.
    const read = NETWORK_FIELDS[key].type === 'parent' ? (coin.networkList[0] as NetworkRecord) : { ...coin.networkList[0], [key]: OTHER_NETWORK_VALUE[key] };
    const fresh = decodeCoins([raw]);
    expect(fresh).toEqual({ records: [{ ...coin, networkList: [read, coin.networkList[1]] }], issues: [] });
    const reused = decodeCoins([raw], previous);
    expect(reused).toEqual(fresh);
    if (NETWORK_FIELDS[key].type === 'parent') expect(reused.records[0]).toBe(previous.get('USDT'));
    else expect(reused.records[0]).not.toBe(previous.get('USDT'));
  });
});

describe('every coin field', () => {
  const coin = coinRecord('USDT', [{ network: 'TRX' }]);
  const previous = byKey(decodeCoins([coin]).records, (c) => c.coin);

  it.each(keysOf(COIN_FIELDS))('%s: read from the wire, and a change of it is never taken for the previous coin', (key) => {
    // Another key is another coin, whose networks repeat it.
    const changed: CoinRecord = COIN_FIELDS[key].type === 'key' ? coinRecord(OTHER_COIN_VALUE.coin, [{ network: 'TRX' }]) : { ...coin, [key]: OTHER_COIN_VALUE[key] };
    const fresh = decodeCoins([changed]);
    expect(fresh).toEqual({ records: [changed], issues: [] });
    const reused = decodeCoins([changed], previous);
    expect(reused).toEqual(fresh);
    expect(reused.records[0]).not.toBe(previous.get('USDT'));
  });
});

describe('every ticker field', () => {
  const ticker = tickerRecord('BTCUSDT');
  const previous = byKey(decodeTickers([ticker]).records, (t) => t.symbol);

  it.each(keysOf(TICKER_FIELDS))('%s: read from the wire, and a change of it is never taken for the previous ticker', (key) => {
    const changed: TickerRecord = { ...ticker, [key]: OTHER_TICKER_VALUE[key] };
    const fresh = decodeTickers([changed]);
    expect(fresh).toEqual({ records: [changed], issues: [] });
    const reused = decodeTickers([changed], previous);
    expect(reused).toEqual(fresh);
    expect(reused.records[0]).not.toBe(previous.get('BTCUSDT'));
  });
});
