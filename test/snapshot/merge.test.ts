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
