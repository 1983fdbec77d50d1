import { gunzipSync } from 'node:zlib';
import { Registry, Gauge } from 'prom-client';
import { Exposition } from '../../src/metrics/cache';
import { assemble, renderNetworks, renderTickers } from '../../src/metrics/exposition';
import { applyCoins, applyTickers } from '../../src/snapshot/merge';
import { emptySnapshot } from '../../src/snapshot/model';
import { coinRecord, tickerRecord } from '../support/records';

const snap = applyTickers(
  applyCoins(
    emptySnapshot('main'),
    { records: [coinRecord('USDT', [{ network: 'Tron(TRC20)', withdrawEnable: false, withdrawDesc: '<b>"maint"</b>\nline', withdrawFee: '1.5', withdrawMin: '1E1' }]), coinRecord('A"B\\C', [{ network: 'N' }])], issues: [] },
    1,
  ),
  { records: [tickerRecord('BTCUSDT', { openPrice: '100', lastPrice: '110', bidPrice: '109', askPrice: '111', quoteVolume: '5000', closeTime: 1_700_000_000_123 })], issues: [] },
  2,
);

describe('snapshot exposition', () => {
  it('renders every network family with exact labels and values; messages never become labels', () => {
    const text = assemble([renderNetworks(snap, () => true)]);
    const lines = text.split('\n').filter((l) => l.startsWith('spotwatch_network_') && l.includes('USDT'));
    expect(lines).toEqual([
      'spotwatch_network_deposit_enabled{exchange="main",coin="USDT",network="Tron(TRC20)"} 1',
      'spotwatch_network_withdraw_enabled{exchange="main",coin="USDT",network="Tron(TRC20)"} 0',
      'spotwatch_network_withdraw_fee{exchange="main",coin="USDT",network="Tron(TRC20)"} 1.5',
      'spotwatch_network_withdraw_min{exchange="main",coin="USDT",network="Tron(TRC20)"} 10',
      'spotwatch_network_desc_present{exchange="main",coin="USDT",network="Tron(TRC20)",direction="deposit"} 0',
      'spotwatch_network_desc_present{exchange="main",coin="USDT",network="Tron(TRC20)",direction="withdraw"} 1',
    ]);
    expect(text).not.toContain('maint');
    expect(text).toContain('coin="A\\"B\\\\C"');
  });

  it('renders ticker families from openPrice and lastPrice', () => {
    const text = assemble([renderTickers(snap, () => true)]);
    expect(text.split('\n').filter((l) => l.startsWith('spotwatch_ticker_'))).toEqual([
      'spotwatch_ticker_last_price{exchange="main",symbol="BTCUSDT"} 110',
      'spotwatch_ticker_price_change_ratio{exchange="main",symbol="BTCUSDT"} 0.1',
      'spotwatch_ticker_spread_ratio{exchange="main",symbol="BTCUSDT"} 0.01818181818181818',
      'spotwatch_ticker_quote_volume{exchange="main",symbol="BTCUSDT"} 5000',
      'spotwatch_ticker_close_timestamp_seconds{exchange="main",symbol="BTCUSDT"} 1700000000.123',
    ]);
  });

  it('declares each family once, whatever the number of exchanges', () => {
    const other = applyCoins(emptySnapshot('other'), { records: [coinRecord('BTC', [{ network: 'BTC' }])], issues: [] }, 1);
    const text = assemble([renderNetworks(snap, () => true), renderNetworks(other, () => true)]);
    expect(text.match(/# TYPE spotwatch_network_deposit_enabled gauge/g)).toHaveLength(1);
    expect(text).toContain('spotwatch_network_deposit_enabled{exchange="other",coin="BTC",network="BTC"} 1');
  });

  it('filters series to bound cardinality', () => {
    const text = assemble([renderNetworks(snap, (label, value) => label !== 'coin' || value === 'USDT')]);
    expect(text).not.toContain('A\\"B');
  });

  it('serves the registry and the cached families, plain and gzipped to the same text', async () => {
    const registry = new Registry();
    new Gauge({ name: 'spotwatch_up', help: 'up', labelNames: ['exchange'], registers: [registry] }).set({ exchange: 'main' }, 1);
    const exposition = new Exposition(registry);
    exposition.update(snap, 'coins');
    exposition.update(snap, 'tickers');
    const plain = await exposition.render();
    expect(plain).toContain('spotwatch_up{exchange="main"} 1\n');
    expect(plain).toContain('spotwatch_ticker_last_price{exchange="main",symbol="BTCUSDT"} 110\n');
    expect(gunzipSync(Buffer.concat(await exposition.renderGzip())).toString()).toBe(plain);
  });
});
