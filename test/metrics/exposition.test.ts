import { gunzipSync } from 'node:zlib';
import { Registry, Gauge } from 'prom-client';
import { manualClock } from '../../src/lib/clock';
import { Exposition, REGISTRY_TEXT_MS, type FamilySource } from '../../src/metrics/exposition';
import { NETWORK_FAMILIES, renderNetworks, renderTickers, TICKER_FAMILIES, type SeriesFilter } from '../../src/metrics/render';
import { applyCoins, applyTickers } from '../../src/snapshot/merge';
import { emptySnapshot, type Snapshot } from '../../src/snapshot/model';
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

/**
 * What the engine answers for the families (runtime/engine-poll.ts): each part of the
 * snapshots it holds, rendered, when its version (a new one per map) differs from what the
 * exposition holds; `answering: false` as an engine busy past the wait.
 */
interface Families {
  snapshots: Snapshot[];
  keep: SeriesFilter;
  answering: boolean;
  /** Each part rendered, in order. */
  rendered: string[];
  source: FamilySource;
}

function families(snapshots: Snapshot[], keep: SeriesFilter = () => true): Families {
  const versions = new WeakMap<object, number>();
  let next = 0;
  const versionOf = (map: object): number => {
    let v = versions.get(map);
    if (v === undefined) versions.set(map, (v = ++next));
    return v;
  };
  const src: Families = {
    snapshots,
    keep,
    answering: true,
    rendered: [],
    source: async (have) => {
      if (!src.answering) return undefined;
      const texts = src.snapshots.flatMap((s) =>
        (['coins', 'tickers'] as const).flatMap((part) => {
          const version = versionOf(part === 'coins' ? s.coins : s.tickers);
          if (have[s.exchange]?.[part] === version) return [];
          src.rendered.push(`${s.exchange} ${part}`);
          const lines = part === 'coins' ? renderNetworks(s, src.keep) : renderTickers(s, src.keep);
          return [{ exchange: s.exchange, part, version, families: (part === 'coins' ? NETWORK_FAMILIES : TICKER_FAMILIES).map((f) => lines[f] ?? '') }];
        }),
      );
      return { exchanges: src.snapshots.map((s) => s.exchange), texts };
    },
  };
  return src;
}

/** The exposition of the given snapshots, as a scraper without gzip reads it. */
async function text(snapshots: Snapshot[], keep?: SeriesFilter): Promise<string> {
  return new Exposition(new Registry(), families(snapshots, keep).source).render();
}

/** Each sample's family is the one its TYPE line opened, and each family is declared once. */
function expectGrouped(exposition: string): void {
  const declared: string[] = [];
  let current = '';
  for (const line of exposition.split('\n')) {
    const type = /^# TYPE (\S+) /.exec(line);
    if (type) {
      declared.push(type[1] as string);
      current = type[1] as string;
    } else if (line !== '' && !line.startsWith('#')) {
      expect(line.slice(0, line.search(/[{ ]/))).toBe(current);
    }
  }
  expect(new Set(declared).size).toBe(declared.length);
}

describe('snapshot exposition', () => {
  it('renders every network family with exact labels and values; messages never become labels', async () => {
    const out = await text([snap]);
    const lines = out.split('\n').filter((l) => l.startsWith('spotwatch_network_') && l.includes('USDT'));
    expect(lines).toEqual([
      'spotwatch_network_deposit_enabled{exchange="main",coin="USDT",network="Tron(TRC20)"} 1',
      'spotwatch_network_withdraw_enabled{exchange="main",coin="USDT",network="Tron(TRC20)"} 0',
      'spotwatch_network_withdraw_fee{exchange="main",coin="USDT",network="Tron(TRC20)"} 1.5',
      'spotwatch_network_withdraw_min{exchange="main",coin="USDT",network="Tron(TRC20)"} 10',
      'spotwatch_network_desc_present{exchange="main",coin="USDT",network="Tron(TRC20)",direction="deposit"} 0',
      'spotwatch_network_desc_present{exchange="main",coin="USDT",network="Tron(TRC20)",direction="withdraw"} 1',
    ]);
    expect(out).not.toContain('maint');
    expect(out).toContain('coin="A\\"B\\\\C"');
    expect(out).toContain('# HELP spotwatch_network_withdraw_fee Withdrawal fee, in units of the coin.\n# TYPE spotwatch_network_withdraw_fee gauge\n');
  });

  it('renders ticker families from openPrice and lastPrice', async () => {
    expect((await text([snap])).split('\n').filter((l) => l.startsWith('spotwatch_ticker_'))).toEqual([
      'spotwatch_ticker_last_price{exchange="main",symbol="BTCUSDT"} 110',
      'spotwatch_ticker_price_change_ratio{exchange="main",symbol="BTCUSDT"} 0.1',
      'spotwatch_ticker_spread_ratio{exchange="main",symbol="BTCUSDT"} 0.01818181818181818',
      'spotwatch_ticker_quote_volume{exchange="main",symbol="BTCUSDT"} 5000',
      'spotwatch_ticker_close_timestamp_seconds{exchange="main",symbol="BTCUSDT"} 1700000000.123',
    ]);
  });

  it('declares each family once and keeps its samples together, whatever the number of exchanges', async () => {
    const other = applyTickers(
      applyCoins(emptySnapshot('other'), { records: [coinRecord('BTC', [{ network: 'BTC' }])], issues: [] }, 1),
      { records: [tickerRecord('ETHBTC', { lastPrice: '0.05' })], issues: [] },
      1,
    );
    const out = await text([snap, other]);
    expectGrouped(out);
    expect(out.match(/# TYPE spotwatch_network_deposit_enabled gauge/g)).toHaveLength(1);
    expect(out).toContain(
      'spotwatch_ticker_last_price{exchange="main",symbol="BTCUSDT"} 110\nspotwatch_ticker_last_price{exchange="other",symbol="ETHBTC"} 0.05\n',
    );
    expect(out).toContain('spotwatch_network_deposit_enabled{exchange="other",coin="BTC",network="BTC"} 1');
  });

  it('renders every record of a large part, in order, each family once', async () => {
    const n = 1_234;
    const name = (i: number): string => `C${String(i).padStart(4, '0')}`;
    const big = applyTickers(
      applyCoins(emptySnapshot('big'), { records: Array.from({ length: n }, (_, i) => coinRecord(name(i), [{ network: 'N' }])), issues: [] }, 1),
      { records: Array.from({ length: n }, (_, i) => tickerRecord(`${name(i)}USDT`, { lastPrice: String(i) })), issues: [] },
      1,
    );
    const out = await text([big]);
    expectGrouped(out);
    const deposit = out.split('\n').filter((l) => l.startsWith('spotwatch_network_deposit_enabled{'));
    expect(deposit).toEqual(Array.from({ length: n }, (_, i) => `spotwatch_network_deposit_enabled{exchange="big",coin="${name(i)}",network="N"} 1`));
    const last = out.split('\n').filter((l) => l.startsWith('spotwatch_ticker_last_price{'));
    expect(last).toEqual(Array.from({ length: n }, (_, i) => `spotwatch_ticker_last_price{exchange="big",symbol="${name(i)}USDT"} ${i}`));
  });

  it('filters series to bound cardinality', async () => {
    const out = await text([snap], (label, value) => label !== 'coin' || value === 'USDT');
    expect(out).not.toContain('A\\"B');
    expect(out).toContain('coin="USDT"');
  });

  it('serves the registry and the cached families, plain and gzipped to the same text', async () => {
    const registry = new Registry();
    new Gauge({ name: 'spotwatch_up', help: 'up', labelNames: ['exchange'], registers: [registry] }).set({ exchange: 'main' }, 1);
    const exposition = new Exposition(registry, families([snap]).source);
    const plain = await exposition.render();
    expect(plain).toContain('spotwatch_up{exchange="main"} 1\n');
    expect(plain).toContain('spotwatch_ticker_last_price{exchange="main",symbol="BTCUSDT"} 110\n');
    expect(gunzipSync(Buffer.concat(await exposition.renderGzip())).toString()).toBe(plain);
    expectGrouped(plain);
  });

  it('shares one rendering of the registry between scrapes for REGISTRY_TEXT_MS on its clock, then renders it afresh', async () => {
    const registry = new Registry();
    const up = new Gauge({ name: 'spotwatch_up', help: 'up', registers: [registry] });
    const clock = manualClock(1_000);
    const exposition = new Exposition(registry, families([]).source, clock);
    up.set(1);
    expect(await exposition.render()).toContain('spotwatch_up 1\n');
    up.set(0);
    clock.advance(REGISTRY_TEXT_MS);
    expect(await exposition.render()).toContain('spotwatch_up 1\n');
    clock.advance(1);
    expect(await exposition.render()).toContain('spotwatch_up 0\n');
  });

  it('asks only for the parts that changed since the last scrape: a ticker poll re-encodes only the ticker families', async () => {
    const src = families([snap]);
    const exposition = new Exposition(new Registry(), src.source);
    const before = await exposition.renderGzip();
    expect(src.rendered).toEqual(['main coins', 'main tickers']);
    // Nothing changed: nothing rendered, nothing encoded.
    const again = await exposition.renderGzip();
    for (let i = 1; i < before.length; i++) expect(again[i]).toBe(before[i]);
    const moved = applyTickers(snap, { records: [tickerRecord('BTCUSDT', { openPrice: '100', lastPrice: '120' })], issues: [] }, 3);
    src.snapshots = [moved];
    const after = await exposition.renderGzip();
    expect(src.rendered).toEqual(['main coins', 'main tickers', 'main tickers']);
    // Registry member first, then 5 network headers and members, then the ticker families.
    expect(after).toHaveLength(before.length);
    for (let i = 1; i <= 10; i++) expect(after[i]).toBe(before[i]);
    expect(after[12]).not.toBe(before[12]);
    expect(gunzipSync(Buffer.concat(after)).toString()).toContain('spotwatch_ticker_last_price{exchange="main",symbol="BTCUSDT"} 120\n');
  });

  it('answers with the families it holds when the engine does not answer in time', async () => {
    const src = families([snap]);
    const exposition = new Exposition(new Registry(), src.source);
    const before = await exposition.render();
    src.snapshots = [applyTickers(snap, { records: [tickerRecord('BTCUSDT', { openPrice: '100', lastPrice: '120' })], issues: [] }, 3)];
    src.answering = false;
    expect(await exposition.render()).toBe(before);
    src.answering = true;
    expect(await exposition.render()).toContain('spotwatch_ticker_last_price{exchange="main",symbol="BTCUSDT"} 120\n');
  });

  it('does not wait for a slow engine past its wait: it answers with what it holds, and takes the late families for the next scrape', async () => {
    const src = families([snap]);
    let slow: (() => void) | undefined;
    const slowSource: FamilySource = async (have) => {
      const answer = await src.source(have);
      if (src.rendered.length > 2) await new Promise<void>((resolve) => (slow = resolve));
      return answer;
    };
    const exposition = new Exposition(new Registry(), slowSource, undefined, 50);
    const before = await exposition.render();
    src.snapshots = [applyTickers(snap, { records: [tickerRecord('BTCUSDT', { openPrice: '100', lastPrice: '120' })], issues: [] }, 3)];
    const t = Date.now();
    expect(await exposition.render()).toBe(before);
    expect(Date.now() - t).toBeLessThan(1_000);
    slow?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await exposition.render()).toContain('spotwatch_ticker_last_price{exchange="main",symbol="BTCUSDT"} 120\n');
    expect(src.rendered).toEqual(['main coins', 'main tickers', 'main tickers']);
  });

  it('a new filter (a reload) applies at the next scrape, though nothing changed', async () => {
    const src = families([snap]);
    const exposition = new Exposition(new Registry(), src.source);
    expect(await exposition.render()).toContain('coin="USDT"');
    src.keep = (label, value) => label !== 'coin' || value !== 'USDT';
    exposition.refresh();
    const out = await exposition.render();
    expect(out).not.toContain('coin="USDT"');
    expect(out).toContain('coin="A\\"B\\\\C"');
  });
});

describe('sample values', () => {
  const value = async (over: Parameters<typeof tickerRecord>[1]): Promise<string[]> => {
    const s = applyTickers(emptySnapshot('main'), { records: [tickerRecord('X', { openPrice: null, bidPrice: null, askPrice: null, ...over })], issues: [] }, 1);
    return (await text([s])).split('\n').filter((l) => l.startsWith('spotwatch_ticker_')).map((l) => l.slice(l.indexOf('} ') + 2));
  };

  it('keeps a plain decimal as written and formats anything else as a float', async () => {
    expect(await value({ lastPrice: '0.00012300', quoteVolume: '12', closeTime: null })).toEqual(['0.00012300', '12']);
    expect(await value({ lastPrice: '1E-7', quoteVolume: '+5', closeTime: null })).toEqual(['1e-7', '5']);
    expect(await value({ lastPrice: '.5', quoteVolume: '7.', closeTime: null })).toEqual(['0.5', '7']);
  });

  it('gives closeTime in seconds exactly as the float would print', async () => {
    for (const ms of [0, 1, 10, 999, 1000, 1_700_000_000_000, 1_700_000_000_120, 1_700_000_000_123, 1_700_000_000_005, 8_640_000_000_000_000, -1_500]) {
      expect((await value({ lastPrice: '1', quoteVolume: null, closeTime: ms }))[1]).toBe(String(ms / 1000));
    }
  });
});
