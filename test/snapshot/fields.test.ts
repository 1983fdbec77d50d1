import type { Change, ChangeKind } from '../../src/snapshot/changes';
import { diff } from '../../src/snapshot/diff';
import { COIN_FIELDS, keysOf, NETWORK_FIELDS, TICKER_FIELDS } from '../../src/snapshot/fields';
import { applyCoins, applyTickers, sameCoin, sameNetwork, sameTicker } from '../../src/snapshot/merge';
import { emptySnapshot, type CoinRecord, type NetworkRecord, type Snapshot, type TickerRecord } from '../../src/snapshot/model';
import { OTHER_COIN_VALUE, OTHER_NETWORK_VALUE, OTHER_TICKER_VALUE } from '../support/field-values';
import { coinRecord, networkRecord, tickerRecord } from '../support/records';

/**
 * The field lists drive equality and the diff: every field of every record type is compared
 * (a record that differs in it is not the same record: it is replaced and stored), and raises
 * exactly the changes its line says. The tables below are typed by the model, so a field added
 * to a list does not compile here until its expected changes are written down.
 */

function snap(coins: CoinRecord[], tickers: TickerRecord[], at: number): Snapshot {
  return applyTickers(applyCoins(emptySnapshot('main'), { records: coins, issues: [] }, at), { records: tickers, issues: [] }, at);
}

/** What changing each field of a network to its OTHER_NETWORK_VALUE raises. */
const NETWORK_CHANGE: { [K in keyof NetworkRecord]: ChangeKind[] } = {
  network: ['network_added', 'network_removed'],
  coin: [],
  name: [],
  isDefault: ['default_network_changed'],
  depositEnable: ['deposit_disabled'],
  withdrawEnable: ['withdraw_disabled'],
  withdrawFee: ['withdraw_fee_changed'],
  withdrawMin: ['withdraw_min_changed'],
  withdrawInternalMin: [],
  withdrawIntegerMultiple: [],
  minConfirm: ['min_confirm_changed'],
  withdrawTag: ['withdraw_tag_changed'],
  depositDust: [],
  contractAddress: ['contract_address_changed'],
  contractAddressUrl: [],
  depositDesc: ['deposit_desc_set'],
  withdrawDesc: ['withdraw_desc_set'],
};

const COIN_CHANGE: { [K in keyof CoinRecord]: ChangeKind[] } = {
  coin: ['coin_listed', 'coin_delisted'],
  name: [],
  depositAllEnable: ['deposit_all_disabled'],
  withdrawAllEnable: ['withdraw_all_disabled'],
  networkList: ['network_removed', 'network_removed'],
};

const TICKER_CHANGE: { [K in keyof TickerRecord]: ChangeKind[] } = {
  symbol: ['symbol_listed', 'symbol_delisted'],
  priceChange: [],
  priceChangePercent: [],
  lastPrice: [],
  bidPrice: [],
  bidQty: [],
  askPrice: [],
  askQty: [],
  openPrice: [],
  highPrice: [],
  lowPrice: [],
  volume: [],
  quoteVolume: [],
  openTime: [],
  closeTime: [],
  count: [],
};

const kinds = (changes: Change[]): ChangeKind[] => changes.map((c) => c.kind);

describe('the network field list', () => {
  it('names every field of a network record, in the order of spec section 2.2 (and the test records have them all)', () => {
    expect(keysOf(NETWORK_FIELDS)).toEqual(Object.keys(NETWORK_CHANGE));
    expect(Object.keys(networkRecord({ coin: 'USDT', network: 'TRX' })).sort()).toEqual(keysOf(NETWORK_FIELDS).sort());
  });

  it.each(keysOf(NETWORK_FIELDS))('%s: compared by sameNetwork and sameCoin, and diffed into exactly its changes', (key) => {
    const [value, expected] = [OTHER_NETWORK_VALUE[key], NETWORK_CHANGE[key]];
    // TRX is not the default, ETH is: TRX turned default, first in the list, becomes the coin's default network.
    const before = coinRecord('USDT', [{ network: 'TRX', isDefault: false }, { network: 'ETH', isDefault: true }]);
    const trx = before.networkList[0] as NetworkRecord;
    const changed = { ...trx, [key]: value };
    const after = { ...before, networkList: [changed, before.networkList[1] as NetworkRecord] };
    expect(sameNetwork(trx, changed)).toBe(false);
    expect(sameCoin(before, after)).toBe(false);
    const next = snap([after], [], 2);
    expect(next.coins.get(after.coin)?.networkList[0]).toBe(changed);
    expect(kinds(diff(snap([before], [], 1), next))).toEqual(expected);
  });
});

describe('the coin field list', () => {
  it('names every field of a coin record, in the order of spec section 2.1', () => {
    expect(keysOf(COIN_FIELDS)).toEqual(Object.keys(COIN_CHANGE));
    expect(Object.keys(coinRecord('USDT', []))).toEqual(keysOf(COIN_FIELDS));
  });

  it.each(keysOf(COIN_FIELDS))('%s: compared by sameCoin, and diffed into exactly its changes', (key) => {
    const [value, expected] = [OTHER_COIN_VALUE[key], COIN_CHANGE[key]];
    const before = coinRecord('USDT', [{ network: 'ETH' }, { network: 'TRX' }]);
    const after = { ...before, [key]: value };
    expect(sameCoin(before, after)).toBe(false);
    expect(kinds(diff(snap([before], [], 1), snap([after], [], 2)))).toEqual(expected);
  });
});

describe('the ticker field list', () => {
  it('names every field of a ticker record, in the order of spec section 2.3', () => {
    expect(keysOf(TICKER_FIELDS)).toEqual(Object.keys(TICKER_CHANGE));
    expect(Object.keys(tickerRecord('BTCUSDT'))).toEqual(keysOf(TICKER_FIELDS));
  });

  it.each(keysOf(TICKER_FIELDS))('%s: compared by sameTicker, and diffed into exactly its changes', (key) => {
    const [value, expected] = [OTHER_TICKER_VALUE[key], TICKER_CHANGE[key]];
    const before = tickerRecord('BTCUSDT');
    const after = { ...before, [key]: value };
    expect(sameTicker(before, after)).toBe(false);
    const next = snap([], [after], 2);
    expect(next.tickers.get(after.symbol)).toBe(after);
    expect(kinds(diff(snap([], [before], 1), next))).toEqual(expected);
  });
});
