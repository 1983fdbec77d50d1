import { answerMemory } from '../../src/exchange/decode-records';
import { exactDecimalJson } from '../../src/exchange/decimal';
import { decodeCoinsWith, decodeTickersWith, keyIn, listIn, requiredDecimal, statusFlag, booleanValue, type CoinSource, type TickerSource } from '../../src/exchange/mapped';
import { dec, requiredStr, type Parsed } from '../../src/exchange/read';
import type { CoinRecord, TickerRecord } from '../../src/snapshot/model';
import { networkRecord, tickerRecord } from '../support/records';

/** The loops every mapped dialect shares: flags derived without guessing, unchanged records reused. */

let reads = 0;
const SOURCE: CoinSource = {
  coin: (o) => keyIn(o, 'id'),
  name: () => null,
  networks: (o) => listIn(o, 'nets'),
  networkKey: (n) => keyIn(n, 'id'),
  network: (n, coin) => {
    reads += 1;
    return networkRecord({ coin, network: requiredStr(n, 'id'), depositEnable: statusFlag(n, 'dep', booleanValue), withdrawEnable: statusFlag(n, 'wd', booleanValue) });
  },
};

const TICKERS: TickerSource = {
  symbol: (o) => keyIn(o, 's'),
  ticker: (o, symbol, time) => {
    reads += 1;
    return tickerRecord(symbol, { lastPrice: requiredDecimal(o, 'p'), openPrice: dec(o, 'o'), closeTime: time });
  },
};

/** The answers' JSON, record by record (lib/json-records.ts), so that the memory sees each record's text. */
const JSON_OF = exactDecimalJson([]);

const net = (id: string, dep: unknown, wd: unknown): Record<string, unknown> => ({ id, dep, wd });

beforeEach(() => {
  reads = 0;
});

describe('coin flags (dialects.md rule 4)', () => {
  it.each([
    ['every network open', [net('A', true, true), net('B', true, true)], [true, true]],
    ['one network closed each way', [net('A', false, true), net('B', true, false)], [false, false]],
    ['no network at all', [], [false, false]],
    ['a network set aside, another closed: known closed', [net('A', undefined, true), net('B', false, false)], [false, false]],
  ])('%s', async (_name, nets, flags) => {
    const { records } = await decodeCoinsWith(SOURCE, [{ id: 'X', nets }]);
    expect(records.map((c) => [c.depositAllEnable, c.withdrawAllEnable])).toEqual([flags]);
  });

  it('keeps the previous flags while a network is unknown and the others are open; without previous ones, the coin is unknown', async () => {
    const first = await decodeCoinsWith(SOURCE, [{ id: 'X', nets: [net('A', false, false), net('B', true, true)] }]);
    const previous = new Map(first.records.map((c) => [c.coin, c]));
    const unknown = [{ id: 'X', nets: [net('A', 'soon', null), net('B', true, true)] }];
    const kept = await decodeCoinsWith(SOURCE, unknown, previous);
    expect(kept.records.map((c) => [c.depositAllEnable, c.withdrawAllEnable, c.networkList.map((n) => n.network)])).toEqual([[false, false, ['B']]]);
    expect(kept.issues.map((i) => [i.entity, i.network, i.reason])).toEqual([['network', 'A', 'dep is not a status this dialect knows']]);
    const none = await decodeCoinsWith(SOURCE, unknown);
    expect([none.records, none.issues.map((i) => [i.entity, i.coin])]).toEqual([[], [['network', 'X'], ['coin', 'X']]]);
  });

  it('keeps the previous flags when a network set aside has no key, even beside one set aside that was open (it may be the closed one)', async () => {
    const first = await decodeCoinsWith(SOURCE, [{ id: 'X', nets: [net('A', true, true), net('B', false, false), net('C', true, true)] }]);
    const previous = new Map(first.records.map((c) => [c.coin, c]));
    expect(first.records.map((c) => [c.depositAllEnable, c.withdrawAllEnable])).toEqual([[false, false]]);
    const next = await decodeCoinsWith(SOURCE, [{ id: 'X', nets: [net('A', 'soon', true), { dep: true, wd: true }, net('C', true, true)] }], previous);
    expect(next.records.map((c) => [c.depositAllEnable, c.withdrawAllEnable])).toEqual([[false, false]]);
    // A closed network known (read now, or set aside with a key and closed last time) still decides.
    const closed = await decodeCoinsWith(SOURCE, [{ id: 'X', nets: [net('B', 'soon', null), { dep: true, wd: true }, net('C', true, true)] }], previous);
    expect(closed.records.map((c) => [c.depositAllEnable, c.withdrawAllEnable])).toEqual([[false, false]]);
  });

  it('sets a coin aside whose networks are not a list rather than reading it as having none', async () => {
    const { records, issues } = await decodeCoinsWith(SOURCE, [{ id: 'X' }, { id: 'Y', nets: null }]);
    expect([records, issues.map((i) => i.reason)]).toEqual([[], ['nets is not a list', 'nets is not a list']]);
  });
});

describe('reuse of unchanged records', () => {
  it('takes a coin whose record text is unchanged across two answers as its previous object, without reading it again', async () => {
    // Through the client's record memory (decode-records.ts): the record's text is what is compared, not its raw object.
    const memory = answerMemory();
    const decode = async (text: string, previous?: ReadonlyMap<string, CoinRecord>): Promise<Parsed<CoinRecord>> => decodeCoinsWith(SOURCE, (await JSON_OF.parseInTurns(text, memory)) as unknown[], previous, memory);
    const x = (wd: boolean): string => JSON.stringify({ id: 'X', nets: [net('A', true, wd)] });
    const first = await decode(`[${x(true)}]`);
    const previous = new Map<string, CoinRecord>(first.records.map((c) => [c.coin, c]));
    reads = 0;
    const again = await decode(`[${JSON.stringify({ id: 'Y', nets: [] })},${x(true)}]`, previous);
    expect([again.records[1] === first.records[0], reads]).toEqual([true, 0]);
    const changed = await decode(`[${x(false)}]`, previous);
    expect([changed.records[0] === first.records[0], changed.records[0]?.withdrawAllEnable, reads]).toEqual([false, false, 1]);
  });

  it('gives back a record equal to the previous one, read from another raw object, as the previous object', async () => {
    const first = await decodeCoinsWith(SOURCE, [{ id: 'X', nets: [net('A', true, true)] }]);
    const again = await decodeCoinsWith(SOURCE, [{ id: 'X', nets: [net('A', 'true', 'true')] }], new Map(first.records.map((c) => [c.coin, c])));
    expect(again.records[0]).toBe(first.records[0]);
  });

  it('reads a ticker again when the answer\'s time moved, its record text unchanged', async () => {
    const memory = answerMemory();
    const decode = async (text: string, time: number, previous?: ReadonlyMap<string, TickerRecord>): Promise<Parsed<TickerRecord>> => decodeTickersWith(TICKERS, (await JSON_OF.parseInTurns(text, memory)) as unknown[], time, previous, memory);
    const first = await decode('[{"s":"BTCUSDT","p":"1"}]', 1_000);
    const previous = new Map(first.records.map((t) => [t.symbol, t]));
    reads = 0;
    const same = await decode('[{"s":"BTCUSDT","p":"1"}]', 1_000, previous);
    const later = await decode('[{"s":"BTCUSDT","p":"1"}]', 2_000, previous);
    expect([same.records[0] === first.records[0], later.records[0]?.closeTime, reads]).toEqual([true, 2_000, 1]);
  });
});
