import { diff } from '../../src/snapshot/diff';
import { applyCoins, applyTickers } from '../../src/snapshot/merge';
import { emptySnapshot, type Snapshot } from '../../src/snapshot/model';
import { coinRecord, tickerRecord } from '../support/records';

function snapshotOf(coins = [coinRecord('BTC', [{ network: 'BTC' }]), coinRecord('USDT', [{ network: 'ETH' }, { network: 'TRX' }])]): Snapshot {
  return applyCoins(emptySnapshot('main'), { records: coins, issues: [] }, 1000);
}

describe('applyCoins', () => {
  it('takes the answer as the new coin list and stamps the time', () => {
    const next = applyCoins(snapshotOf(), { records: [coinRecord('ETH', [{ network: 'ETH' }])], issues: [] }, 2000);
    expect([...next.coins.keys()]).toEqual(['ETH']);
    expect(next.coinsAt).toBe(2000);
  });

  it('keeps the previous value of a coin whose record was malformed', () => {
    const prev = snapshotOf();
    const next = applyCoins(prev, { records: [prev.coins.get('BTC')!], issues: [{ entity: 'coin', coin: 'USDT', index: 1, reason: 'x' }] }, 2000);
    expect(next.coins.get('USDT')).toBe(prev.coins.get('USDT'));
  });

  it('keeps the previous value of a malformed network, and only that one', () => {
    const prev = snapshotOf();
    const usdt = coinRecord('USDT', [{ network: 'ETH', withdrawEnable: false }]);
    const next = applyCoins(prev, { records: [prev.coins.get('BTC')!, usdt], issues: [{ entity: 'network', coin: 'USDT', network: 'TRX', index: 1, reason: 'x' }] }, 2000);
    expect(next.coins.get('USDT')?.networkList.map((n) => [n.network, n.withdrawEnable])).toEqual([
      ['ETH', false],
      ['TRX', true],
    ]);
  });

  it('puts a kept network back where it was, so the order (and the default network) stays', () => {
    const prev = applyCoins(emptySnapshot('main'), { records: [coinRecord('USDT', [{ network: 'ETH', isDefault: true }, { network: 'TRX', isDefault: true }, { network: 'SOL' }])], issues: [] }, 1000);
    const next = applyCoins(
      prev,
      { records: [coinRecord('USDT', [{ network: 'TRX', isDefault: true }, { network: 'SOL' }])], issues: [{ entity: 'network', coin: 'USDT', network: 'ETH', index: 0, reason: 'x' }] },
      2000,
    );
    expect(next.coins.get('USDT')?.networkList.map((n) => n.network)).toEqual(['ETH', 'TRX', 'SOL']);
  });

  it('keeps everything absent when a broken record could not be keyed', () => {
    const prev = snapshotOf();
    const next = applyCoins(prev, { records: [], issues: [{ entity: 'coin', index: 0, reason: 'x' }] }, 2000);
    expect([...next.coins.keys()]).toEqual(['BTC', 'USDT']);
  });

  it('keeps every absent network of a coin when a broken network could not be keyed', () => {
    const prev = snapshotOf();
    const next = applyCoins(prev, { records: [prev.coins.get('BTC')!, coinRecord('USDT', [])], issues: [{ entity: 'network', coin: 'USDT', index: 0, reason: 'x' }] }, 2000);
    expect(next.coins.get('USDT')?.networkList.map((n) => n.network)).toEqual(['ETH', 'TRX']);
  });
});

describe('applyTickers', () => {
  it('keeps the previous value of a malformed ticker, and everything when unkeyed', () => {
    const prev = applyTickers(emptySnapshot('main'), { records: [tickerRecord('A'), tickerRecord('B')], issues: [] }, 1);
    const keyed = applyTickers(prev, { records: [tickerRecord('A', { lastPrice: '5' })], issues: [{ entity: 'ticker', symbol: 'B', index: 1, reason: 'x' }] }, 2);
    expect([...keyed.tickers.values()].map((t) => [t.symbol, t.lastPrice])).toEqual([
      ['A', '5'],
      ['B', '101'],
    ]);
    const unkeyed = applyTickers(prev, { records: [], issues: [{ entity: 'ticker', index: 0, reason: 'x' }] }, 3);
    expect([...unkeyed.tickers.keys()]).toEqual(['A', 'B']);
    expect(unkeyed.tickersAt).toBe(3);
  });
});

describe('records set aside on the first answer, with no previous value', () => {
  const issue = { entity: 'network', coin: 'USDT', network: 'TRX', index: 1, reason: 'network appears twice in networkList with different values' } as const;

  it('are unknown: left out, not closed, and not "added" when they first read well', () => {
    const first = applyCoins(emptySnapshot('main'), { records: [coinRecord('USDT', [{ network: 'ETH' }])], issues: [issue] }, 1000);
    expect(first.coins.get('USDT')?.networkList.map((n) => n.network)).toEqual(['ETH']);
    expect([...(first.unknownCoins ?? [])]).toEqual(['USDT\u0000TRX']);
    // Still set aside: still unknown, no change.
    const second = applyCoins(first, { records: [coinRecord('USDT', [{ network: 'ETH' }])], issues: [issue] }, 2000);
    expect([...(second.unknownCoins ?? [])]).toEqual(['USDT\u0000TRX']);
    expect(diff(first, second)).toEqual([]);
    // Read well at last: known, and not a `network_added`.
    const third = applyCoins(second, { records: [coinRecord('USDT', [{ network: 'ETH' }, { network: 'TRX' }])], issues: [] }, 3000);
    expect(third.unknownCoins).toBeUndefined();
    expect(diff(second, third)).toEqual([]);
  });

  it('a whole coin and a ticker the same way', () => {
    const coinIssue = { entity: 'coin', coin: 'SOL', index: 1, reason: 'coin appears twice in the list with different values' } as const;
    const first = applyCoins(emptySnapshot('main'), { records: [coinRecord('BTC', [{ network: 'BTC' }])], issues: [coinIssue] }, 1000);
    expect([...(first.unknownCoins ?? [])]).toEqual(['SOL']);
    const next = applyCoins(first, { records: [coinRecord('BTC', [{ network: 'BTC' }]), coinRecord('SOL', [{ network: 'SOL' }])], issues: [] }, 2000);
    expect(diff(first, next)).toEqual([]);

    const tickerIssue = { entity: 'ticker', symbol: 'B', index: 1, reason: 'x' } as const;
    const t1 = applyTickers(emptySnapshot('main'), { records: [tickerRecord('A')], issues: [tickerIssue] }, 1);
    expect([...(t1.unknownSymbols ?? [])]).toEqual(['B']);
    const t2 = applyTickers(t1, { records: [tickerRecord('A'), tickerRecord('B')], issues: [] }, 2);
    expect(t2.unknownSymbols).toBeUndefined();
    expect(diff(t1, t2)).toEqual([]);
  });

  it('set aside later, a record without a previous value is new, and listed when it reads well', () => {
    const base = applyCoins(emptySnapshot('main'), { records: [coinRecord('BTC', [{ network: 'BTC' }])], issues: [] }, 1000);
    const setAside = applyCoins(base, { records: [coinRecord('BTC', [{ network: 'BTC' }])], issues: [{ entity: 'coin', coin: 'NEW', index: 1, reason: 'x' }] }, 2000);
    expect(setAside.unknownCoins).toBeUndefined();
    const listed = applyCoins(setAside, { records: [coinRecord('BTC', [{ network: 'BTC' }]), coinRecord('NEW', [{ network: 'NEW' }])], issues: [] }, 3000);
    expect(diff(setAside, listed).map((c) => [c.kind, c.coin])).toEqual([['coin_listed', 'NEW']]);
  });
});

describe('applyTickers: an answer that changed nothing', () => {
  const base = applyTickers(emptySnapshot('main'), { records: [tickerRecord('BTCUSDT', { lastPrice: '1' }), tickerRecord('ETHUSDT', { lastPrice: '2' })], issues: [] }, 1000);

  it.each([
    ['the same values, as new objects', [tickerRecord('BTCUSDT', { lastPrice: '1' }), tickerRecord('ETHUSDT', { lastPrice: '2' })], [], true, 'BTCUSDT 1, ETHUSDT 2'],
    ['one price moved', [tickerRecord('BTCUSDT', { lastPrice: '1' }), tickerRecord('ETHUSDT', { lastPrice: '2.5' })], [], false, 'BTCUSDT 1, ETHUSDT 2.5'],
    ['a symbol gone', [tickerRecord('BTCUSDT', { lastPrice: '1' })], [], false, 'BTCUSDT 1'],
    ['a symbol sent twice, one missing', [tickerRecord('BTCUSDT', { lastPrice: '1' }), tickerRecord('BTCUSDT', { lastPrice: '1' })], [], false, 'BTCUSDT 1'],
    // The same answer read afresh as kept: the path, the engine, the exposition and the writer take a new map as a change.
    ['a record set aside (kept at its previous value), nothing else changed', [tickerRecord('BTCUSDT', { lastPrice: '1' })], [{ entity: 'ticker' as const, symbol: 'ETHUSDT', index: 1, reason: 'x' }], true, 'BTCUSDT 1, ETHUSDT 2'],
    ['a record set aside, another price moved', [tickerRecord('BTCUSDT', { lastPrice: '1.5' })], [{ entity: 'ticker' as const, symbol: 'ETHUSDT', index: 1, reason: 'x' }], false, 'BTCUSDT 1.5, ETHUSDT 2'],
    ['an unkeyed record set aside (everything absent kept), nothing else changed', [tickerRecord('ETHUSDT', { lastPrice: '2' })], [{ entity: 'ticker' as const, index: 0, reason: 'x' }], true, 'BTCUSDT 1, ETHUSDT 2'],
  ])('%s: keeps the previous map only when nothing changed', (_name, records, issues, same, content) => {
    const next = applyTickers(base, { records, issues }, 2000);
    expect({ same: next.tickers === base.tickers, at: next.tickersAt, content: [...next.tickers.values()].map((t) => `${t.symbol} ${t.lastPrice}`).join(', ') }).toEqual({ same, at: 2000, content });
  });
});

describe('applyCoins: an answer whose malformed records are kept and nothing else changed', () => {
  const usdt = (trx: boolean) => coinRecord('USDT', trx ? [{ network: 'ETH' }, { network: 'TRX' }] : [{ network: 'ETH' }]);
  const malformedTrx = { entity: 'network' as const, coin: 'USDT', network: 'TRX', index: 1, reason: 'x' };

  it.each([
    ['a network set aside, kept at its previous value', [coinRecord('BTC', [{ network: 'BTC' }]), usdt(false)], [malformedTrx]],
    ['a coin set aside', [coinRecord('BTC', [{ network: 'BTC' }])], [{ entity: 'coin' as const, coin: 'USDT', index: 1, reason: 'x' }]],
    ['an unkeyed coin set aside', [coinRecord('BTC', [{ network: 'BTC' }])], [{ entity: 'coin' as const, index: 1, reason: 'x' }]],
  ])('%s: the very map (and coin objects) it was, only the time moves', (_name, records, issues) => {
    const prev = snapshotOf([coinRecord('BTC', [{ network: 'BTC' }]), usdt(true)]);
    const next = applyCoins(prev, { records, issues }, 2000);
    expect({ same: next.coins === prev.coins, at: next.coinsAt }).toEqual({ same: true, at: 2000 });
  });

  it('and the same answer again, read afresh, keeps the map it gave (merging it twice is merging it once)', () => {
    const prev = snapshotOf([coinRecord('BTC', [{ network: 'BTC' }]), usdt(true)]);
    const answer = { records: [coinRecord('BTC', [{ network: 'BTC' }]), usdt(false)], issues: [malformedTrx] };
    const once = applyCoins(prev, { records: [coinRecord('BTC', [{ network: 'BTC', withdrawFee: '2' }]), usdt(false)], issues: [malformedTrx] }, 2000);
    const twice = applyCoins(applyCoins(once, answer, 3000), answer, 4000);
    const again = applyCoins(twice, { records: answer.records.map((c) => structuredClone(c)), issues: answer.issues }, 5000);
    expect({ same: again.coins === twice.coins, trx: again.coins.get('USDT')?.networkList.map((n) => n.network) }).toEqual({ same: true, trx: ['ETH', 'TRX'] });
  });
});
