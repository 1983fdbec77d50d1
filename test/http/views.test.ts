import type { Alert } from '../../src/alerts/alert';
import { createApp } from '../../src/http/app';
import { listen, type Listening } from '../../src/http/server';
import type { ExchangeInput } from '../../src/http/state-view';
import { Views } from '../../src/http/views';
import type { Change } from '../../src/snapshot/changes';
import type { Snapshot } from '../../src/snapshot/model';
import type { StateStore } from '../../src/store/store';
import { coinRecord } from '../support/records';
import { openTempStore, type TempStore } from '../support/temp-store';

jest.setTimeout(120_000);

/**
 * The state of issue 10's storm, at full size: 4,000 coins, all 8,000 networks closed both
 * ways, 32,000 rows of history, 8,002 alerts firing. A render used to block the loop 11-13 s.
 */
const T0 = Date.UTC(2026, 10, 1);
const COINS = 4000;
const coin = (i: number): string => `C${String(i).padStart(4, '0')}`;
const NETWORKS = ['ETH', 'TRX'] as const;

function stormSnapshot(): Snapshot {
  const coins = new Map();
  for (let i = 0; i < COINS; i++) {
    coins.set(coin(i), coinRecord(coin(i), NETWORKS.map((network) => ({ network, depositEnable: false, withdrawEnable: false, withdrawDesc: `maintenance ${i}` }))));
  }
  return { exchange: 'main', coinsAt: T0 + 60_000, tickersAt: T0 + 60_000, coins, tickers: new Map() };
}

/** Per network: its desc set, then deposits closed, then withdrawals closed (the newest: network n at T0 + 4n + 3). */
function stormChanges(): Change[] {
  const out: Change[] = [];
  for (let i = 0; i < COINS; i++) {
    NETWORKS.forEach((network, k) => {
      const n = i * 2 + k;
      const at = T0 + 4 * n;
      out.push(
        { kind: 'withdraw_desc_set', exchange: 'main', coin: coin(i), network, before: null, after: `maintenance ${i}`, at },
        { kind: 'deposit_desc_set', exchange: 'main', coin: coin(i), network, before: null, after: 'x', at: at + 1 },
        { kind: 'deposit_disabled', exchange: 'main', coin: coin(i), network, before: true, after: false, at: at + 2 },
        { kind: 'withdraw_disabled', exchange: 'main', coin: coin(i), network, before: true, after: false, at: at + 3 },
      );
    });
  }
  return out;
}

function alert(fingerprint: string, labels: Record<string, string>, activeAt: number): Alert {
  return {
    fingerprint, ruleId: `${labels.alertname}:1`, entity: fingerprint, labels, annotations: { summary: `${labels.alertname} ${fingerprint}` },
    status: 'firing', activeAt, startsAt: activeAt, endsAt: null, lastActiveAt: activeAt, lastNotifiedAt: null, value: 1, event: false,
  };
}

function stormAlerts(): Alert[] {
  const alerts: Alert[] = [];
  for (let n = 0; n < COINS * 2; n++) {
    const i = Math.floor(n / 2);
    alerts.push(alert(`w${String(n).padStart(5, '0')}`, { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'warning', coin: coin(i), network: NETWORKS[n % 2] as string }, T0 + 4 * n + 3));
  }
  alerts.push(alert('down-coins', { alertname: 'ExchangeDown', exchange: 'main', severity: 'critical', endpoint: 'coins' }, T0 + 100));
  alerts.push(alert('down-tickers', { alertname: 'ExchangeDown', exchange: 'main', severity: 'critical', endpoint: 'tickers' }, T0 + 200));
  return alerts;
}

describe('the status page and the state and alerts APIs in a storm (8,000 networks closed)', () => {
  let temp: TempStore;
  let store: StateStore;
  let http: Listening;
  const alerts = stormAlerts();
  const exchanges: ExchangeInput[] = [{
    name: 'main', up: true, snapshot: stormSnapshot(),
    polls: { coins: { at: new Date(T0 + 60_000).toISOString(), ok: true }, tickers: { at: new Date(T0 + 60_000).toISOString(), ok: true } },
  }];
  const took: Record<string, number[]> = {};

  async function get(path: string): Promise<{ status: number; text: string }> {
    const started = performance.now();
    const res = await fetch(`${http.url}${path}`);
    const text = await res.text();
    (took[path.split('?')[0] as string] ??= []).push(performance.now() - started);
    return { status: res.status, text };
  }

  beforeAll(async () => {
    temp = openTempStore('spotwatch-storm-');
    store = temp.store;
    const changes = stormChanges();
    store.transaction(() => store.appendChanges(changes));
    const views = new Views({ now: () => T0 + 120_000, exchanges: () => exchanges, alerts: () => alerts.values(), store: () => store });
    http = await listen(createApp({
      ready: () => true,
      metrics: { contentType: 'text/plain', render: async () => '', renderGzip: async () => [] },
      api: {
        alerts: () => [...alerts],
        changes: (q) => store.queryChanges(q),
        state: (page) => views.state(page),
        deadLetters: () => [],
        silences: { list: () => [], save: () => undefined },
        now: () => T0 + 120_000,
      },
      reload: async () => ({ ok: true }),
      statusView: () => views.statusView(),
    }), '127.0.0.1', 0);
  });

  afterAll(async () => {
    await http?.close();
    temp?.close();
    // The figures for the notes: medians are what a reloading tab costs.
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
    process.stdout.write(`storm render times (ms): ${Object.entries(took).map(([p, xs]) => `${p} first ${xs[0]?.toFixed(1)}, median ${median(xs).toFixed(1)} of ${xs.length}`).join('; ')}\n`);
  });

  it('holds the history it was built from: 32,000 changes', () => {
    expect(store.countChanges(1_000_000)).toBe(32_000);
  });

  it('caps every table of the page, says how many more there are, and shows the newest closures and the most severe alerts first', async () => {
    const { status, text } = await get('/');
    expect(status).toBe(200);
    const section = (id: string): string => text.slice(text.indexOf(`<h2 id="${id}">`), text.indexOf('<h2', text.indexOf(`<h2 id="${id}">`) + 1));
    const rows = (html: string): string[] => [...html.matchAll(/<tr[^>]*><td.*?<\/tr>/g)].map((m) => m[0]);
    const disabled = section('disabled');
    expect(disabled).toContain('Networks with deposits or withdrawals closed (8000)');
    expect(rows(disabled)).toHaveLength(500);
    expect(disabled).toContain('<p class="more">… and 7500 more (newest closures shown; all of them: /api/v1/state).</p>');
    // Network 7999 (C3999 on TRX) closed last, at T0 + 4 * 7999 + 3.
    expect(rows(disabled)[0]).toBe('<tr data-k="main c3999 trx "><td>main</td><td>C3999</td><td>TRX</td><td class="bad">closed</td><td class="bad">closed</td><td>2026-11-01 00:00:31Z</td><td class="msg" dir="auto">maintenance 3999</td></tr>');
    const firing = section('alerts');
    expect(firing).toContain('Alerts firing (8002)');
    expect(rows(firing)).toHaveLength(500);
    expect(firing).toContain('<p class="more">… and 7502 more (most severe and newest shown; all of them: /api/v1/alerts).</p>');
    expect(rows(firing).slice(0, 2).map((r) => /<td>(\w+)<\/td>/.exec(r)?.[1])).toEqual(['ExchangeDown', 'ExchangeDown']);
    const changes = text.slice(text.indexOf('<h2 id="changes">'));
    expect(rows(changes)).toHaveLength(50);
    expect(changes).toContain('<p class="more">… and 31950 more (older ones: /api/v1/changes).</p>');
    expect(section('exchanges')).not.toContain('class="more"');
  });

  it('pages /api/v1/state: at most 1,000 closed networks per exchange and page, with the total and the next offset', async () => {
    type State = { data: { exchanges: { name: string; networks: number; alertsFiring: number; disabled: { coin: string; network: string }[]; disabledTotal: number }[] }; next: string | null };
    const first = JSON.parse((await get('/api/v1/state')).text) as State;
    const ex = first.data.exchanges[0];
    expect([ex?.name, ex?.networks, ex?.alertsFiring, ex?.disabled.length, ex?.disabledTotal, first.next]).toEqual(['main', 8000, 8002, 1000, 8000, '1000']);
    expect(ex?.disabled[0]).toEqual({ coin: 'C0000', network: 'ETH', chain: null, depositEnable: false, withdrawEnable: false, depositDesc: null, withdrawDesc: 'maintenance 0' });
    const most = JSON.parse((await get('/api/v1/state?limit=1000')).text) as State;
    expect(most.data.exchanges[0]?.disabled).toHaveLength(1000);
    const over = await get('/api/v1/state?limit=5000');
    expect([over.status, over.text]).toEqual([400, '{"status":"error","error":"limit: a whole number from 1 to 1000"}']);
    const last = JSON.parse((await get('/api/v1/state?offset=7500')).text) as State;
    expect([last.data.exchanges[0]?.disabled.length, last.data.exchanges[0]?.disabled[0], last.next]).toEqual([500, { coin: 'C3750', network: 'ETH', chain: null, depositEnable: false, withdrawEnable: false, depositDesc: null, withdrawDesc: 'maintenance 3750' }, null]);
  });

  it('pages /api/v1/alerts: oldest first, at most 1,000 a page, with the total and the next offset', async () => {
    type Alerts = { data: { fingerprint: string }[]; total: number; next: string | null };
    const first = JSON.parse((await get('/api/v1/alerts')).text) as Alerts;
    expect([first.data.length, first.total, first.next, first.data[0]?.fingerprint, first.data[1]?.fingerprint]).toEqual([1000, 8002, '1000', 'w00000', 'w00001']);
    const last = JSON.parse((await get('/api/v1/alerts?offset=8000&limit=10')).text) as Alerts;
    expect([last.data.map((a) => a.fingerprint), last.total, last.next]).toEqual([['w07998', 'w07999'], 8002, null]);
  });

  it('renders the page and the first API pages well within a second, again and again', async () => {
    // The target is 100 ms (see the notes for measured figures); the bound is 10x that so a
    // busy shared CI machine does not fail it, and still 10x below the 11-13 s it replaces.
    for (let i = 0; i < 5; i++) {
      for (const path of ['/', '/api/v1/state', '/api/v1/alerts']) {
        const started = performance.now();
        expect((await get(path)).status).toBe(200);
        expect(performance.now() - started).toBeLessThan(1000);
      }
    }
  });
});

describe('the status page timeline', () => {
  it('tells an outage that began long ago and reopened just now, though 50 outages began since', () => {
    const t: TempStore = openTempStore();
    try {
      const ch = (kind: Change['kind'], c: string, at: number): Change => ({ kind, exchange: 'main', coin: c, network: 'ETH', before: kind === 'withdraw_enabled' ? false : true, after: kind === 'withdraw_enabled', at });
      const coins = new Map([['OLD', coinRecord('OLD', [{ network: 'ETH' }])], ...Array.from({ length: 50 }, (_, i) => [coin(i), coinRecord(coin(i), [{ network: 'ETH' }])] as const)]);
      t.store.saveSnapshot({ exchange: 'main', coinsAt: T0, tickersAt: null, coins, tickers: new Map() }, 'coins');
      t.store.appendChanges([ch('withdraw_disabled', 'OLD', T0 + 1_000)]);
      t.store.appendChanges(Array.from({ length: 50 }, (_, i) => ch('withdraw_disabled', coin(i), T0 + 10_000 + i)));
      t.store.appendChanges([ch('withdraw_enabled', 'OLD', T0 + 100_000)]);
      const exchanges: ExchangeInput[] = [{ name: 'main', up: true, polls: { coins: { at: new Date(T0 + 100_000).toISOString(), ok: true }, tickers: null }, snapshot: { exchange: 'main', coinsAt: T0 + 100_000, tickersAt: null, coins, tickers: new Map() } }];
      const views = new Views({ now: () => T0 + 100_000, exchanges: () => exchanges, alerts: () => [], store: () => t.store });
      const first = views.statusView().timeline?.[0];
      expect(first && { at: first.at, kind: first.kind, text: first.text }).toEqual({ at: T0 + 100_000, kind: 'reopened', text: 'withdrawals reopened after 1m 39s' });
    } finally {
      t.close();
    }
  });
});
