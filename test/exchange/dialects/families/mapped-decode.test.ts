import { decodeCoinsWith, decodeTickersWith, keyIn, listIn, statusFlag, booleanValue, type CoinSource, type TickerSource } from '../../../../src/exchange/dialects/families/mapped-decode';
import { dec, requiredDec, requiredStr } from '../../../../src/exchange/read';
import { networkRecord, tickerRecord } from '../../../support/records';

/** The loops every mapped dialect shares: flags derived without guessing, unchanged records reused. */

const SOURCE: CoinSource = {
  coin: (o) => keyIn(o, 'id'),
  name: () => null,
  networks: (o) => listIn(o, 'nets'),
  networkKey: (n) => keyIn(n, 'id'),
  network: (n, coin) => networkRecord({ coin, network: requiredStr(n, 'id'), depositEnable: statusFlag(n, 'dep', booleanValue), withdrawEnable: statusFlag(n, 'wd', booleanValue) }),
};

const TICKERS: TickerSource = {
  symbol: (o) => keyIn(o, 's'),
  ticker: (o, symbol, time) => tickerRecord(symbol, { lastPrice: requiredDec(o, 'p'), openPrice: dec(o, 'o'), closeTime: time }),
};

const net = (id: string, dep: unknown, wd: unknown): Record<string, unknown> => ({ id, dep, wd });

describe('coin flags (dialects.md rule 4)', () => {
  it.each([
    ['every network open', [net('A', true, true), net('B', true, true)], [true, true]],
    ['one network closed each way', [net('A', false, true), net('B', true, false)], [false, false]],
    ['no network at all', [], [false, false]],
    ['a network set aside, another closed: known closed', [net('A', undefined, true), net('B', false, false)], [false, false]],
  ])('%s', (_name, nets, flags) => {
    const { records } = decodeCoinsWith(SOURCE, [{ id: 'X', nets }]);
    expect(records.map((c) => [c.depositAllEnable, c.withdrawAllEnable])).toEqual([flags]);
  });

  it('keeps the previous flags while a network is unknown and the others are open; without previous ones, the coin is unknown', () => {
    const first = decodeCoinsWith(SOURCE, [{ id: 'X', nets: [net('A', false, false), net('B', true, true)] }]);
    const previous = new Map(first.records.map((c) => [c.coin, c]));
    const unknown = [{ id: 'X', nets: [net('A', 'soon', null), net('B', true, true)] }];
    const kept = decodeCoinsWith(SOURCE, unknown, previous);
    expect(kept.records.map((c) => [c.depositAllEnable, c.withdrawAllEnable, c.networkList.map((n) => n.network)])).toEqual([[false, false, ['B']]]);
    expect(kept.issues.map((i) => [i.entity, i.network, i.reason])).toEqual([['network', 'A', 'dep is not a status this dialect knows']]);
    const none = decodeCoinsWith(SOURCE, unknown);
    expect([none.records, none.issues.map((i) => [i.entity, i.coin])]).toEqual([[], [['network', 'X'], ['coin', 'X']]]);
  });

  it('keeps the previous flags when a network set aside has no key, even beside one set aside that was open (it may be the closed one)', () => {
    const first = decodeCoinsWith(SOURCE, [{ id: 'X', nets: [net('A', true, true), net('B', false, false), net('C', true, true)] }]);
    const previous = new Map(first.records.map((c) => [c.coin, c]));
    expect(first.records.map((c) => [c.depositAllEnable, c.withdrawAllEnable])).toEqual([[false, false]]);
    const next = decodeCoinsWith(SOURCE, [{ id: 'X', nets: [net('A', 'soon', true), { dep: true, wd: true }, net('C', true, true)] }], previous);
    expect(next.records.map((c) => [c.depositAllEnable, c.withdrawAllEnable])).toEqual([[false, false]]);
    // A closed network known (read now, or set aside with a key and closed last time) still decides.
    const closed = decodeCoinsWith(SOURCE, [{ id: 'X', nets: [net('B', 'soon', null), { dep: true, wd: true }, net('C', true, true)] }], previous);
    expect(closed.records.map((c) => [c.depositAllEnable, c.withdrawAllEnable])).toEqual([[false, false]]);
  });

  it('never closes a coin whose only network is set aside without a key: its previous flags, or the coin set aside', () => {
    const first = decodeCoinsWith(SOURCE, [{ id: 'X', nets: [net('A', true, true)] }]);
    const previous = new Map(first.records.map((c) => [c.coin, c]));
    const unkeyed = [{ id: 'X', nets: [{ dep: true, wd: true }] }];
    expect(decodeCoinsWith(SOURCE, unkeyed, previous).records.map((c) => [c.depositAllEnable, c.withdrawAllEnable])).toEqual([[true, true]]);
    expect(decodeCoinsWith(SOURCE, unkeyed).issues.map((i) => [i.entity, i.reason])).toEqual([
      ['network', 'id is missing'],
      ['coin', 'the coin flags are unknown: a network was set aside and no other is closed'],
    ]);
  });

  it('sets a coin aside whose networks are not a list rather than reading it as having none', () => {
    const { records, issues } = decodeCoinsWith(SOURCE, [{ id: 'X' }, { id: 'Y', nets: null }]);
    expect([records, issues.map((i) => i.reason)]).toEqual([[], ['nets is not a list', 'nets is not a list']]);
  });
});

describe('reuse of unchanged records', () => {
  it('gives back a record equal to the previous one, read from another raw object, as the previous object', () => {
    const first = decodeCoinsWith(SOURCE, [{ id: 'X', nets: [net('A', true, true)] }]);
    const again = decodeCoinsWith(SOURCE, [{ id: 'X', nets: [net('A', 'true', 'true')] }], new Map(first.records.map((c) => [c.coin, c])));
    expect(again.records[0]).toBe(first.records[0]);
    const changed = decodeCoinsWith(SOURCE, [{ id: 'X', nets: [net('A', true, false)] }], new Map(first.records.map((c) => [c.coin, c])));
    expect([changed.records[0] === first.records[0], changed.records[0]?.withdrawAllEnable]).toEqual([false, false]);
  });

  it('reads a ticker of an answer whose time moved as a new record, its previous object for the same time', () => {
    const first = decodeTickersWith(TICKERS, [{ s: 'BTCUSDT', p: '1' }], 1_000);
    const previous = new Map(first.records.map((t) => [t.symbol, t]));
    const same = decodeTickersWith(TICKERS, [{ s: 'BTCUSDT', p: '1' }], 1_000, previous);
    const later = decodeTickersWith(TICKERS, [{ s: 'BTCUSDT', p: '1' }], 2_000, previous);
    expect([same.records[0] === first.records[0], later.records[0] === first.records[0], later.records[0]?.closeTime]).toEqual([true, false, 2_000]);
  });
});
