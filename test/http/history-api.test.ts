import { historySource } from '../../src/runtime/history-source';
import { createApp } from '../../src/http/app';
import { listen, type Listening } from '../../src/http/server';
import type { StatusView } from '../../src/http/status-page';
import type { Snapshot } from '../../src/snapshot/model';
import { H, script, scriptedNow, T0, change } from '../support/outage-script';
import { openTempStore, type TempStore } from '../support/temp-store';
import { child, childrenNamed, parseXml } from '../support/xml';

const NOW = T0 + 10 * H;

let t: TempStore;
let http: Listening;
let current: Snapshot;

beforeAll(async () => {
  t = openTempStore();
  script(t.store);
  // What the exchange looks like now: ETH withdrawals reopened, BTC deposits closed.
  current = scriptedNow();
  http = await listen(
    createApp({
      ready: () => true,
      metrics: { contentType: 'text/plain', render: async () => '', renderGzip: async () => [] },
      api: { alerts: () => [], changes: () => [], state: () => ({ data: { exchanges: [], routes: [] }, next: null }), deadLetters: () => [], silences: { list: () => [], save: () => undefined }, now: () => NOW },
      reload: async () => ({ ok: true }),
      statusView: () => ({}) as StatusView,
      history: historySource({ store: () => t.store, exchanges: () => [{ name: 'main', up: true, polls: { coins: null, tickers: null }, snapshot: current }], now: () => NOW }),
    }),
    '127.0.0.1',
    0,
  );
});
afterAll(async () => {
  await http.close();
  t.close();
});

async function json(path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${http.url}${path}`);
  return { status: res.status, body: (await res.json()) as unknown };
}

const iso = (ms: number): string => new Date(ms).toISOString();

describe('GET /api/v1/outages', () => {
  it('lists the scripted closures newest first, with their messages; one from before watching began has no start or length', async () => {
    expect(await json('/api/v1/outages')).toEqual({
      status: 200,
      body: {
        outages: [
          { exchange: 'main', coin: 'BTC', network: 'BTC', chain: null, direction: 'deposit', from: iso(T0 + 5 * H), to: null, duration_seconds: 5 * 3600, message: null },
          { exchange: 'main', coin: 'USDT', network: 'TRX', chain: null, direction: 'withdraw', from: iso(T0 + H), to: iso(T0 + 3 * H), duration_seconds: 7200, message: 'maintenance <b>& / maintenance extended' },
          { exchange: 'main', coin: 'USDT', network: 'ETH', chain: null, direction: 'withdraw', from: null, to: iso(T0 + 6 * H), duration_seconds: null, message: 'wallet upgrade' },
        ],
      },
    });
  });

  it('filters by exchange, coin, network, direction and since, and refuses a limit over 1000', async () => {
    const nets = async (q: string) => ((await json(`/api/v1/outages?${q}`)).body as { outages: { network: string }[] }).outages.map((o) => o.network);
    expect(await nets('coin=USDT')).toEqual(['TRX', 'ETH']);
    expect(await nets('network=TRX&direction=withdraw')).toEqual(['TRX']);
    expect(await nets('direction=deposit')).toEqual(['BTC']);
    expect(await nets(`since=${encodeURIComponent(iso(T0 + 4 * H))}`)).toEqual(['BTC', 'ETH']);
    expect(await nets('exchange=other')).toEqual([]);
    expect(await nets('limit=1')).toEqual(['BTC']);
    expect(await nets('limit=1000')).toEqual(['BTC', 'TRX', 'ETH']);
    expect(await json('/api/v1/outages?limit=1001')).toMatchObject({ status: 400, body: { status: 'error', error: 'limit: a whole number from 1 to 1000' } });
    expect((await json('/api/v1/outages?direction=sideways')).status).toBe(400);
    expect((await json('/api/v1/outages?limit=0')).status).toBe(400);
  });
});

describe('GET /api/v1/availability', () => {
  it('open ratio, outages and mean time to reopen per network and direction, counted from when watching began (10 h ago)', async () => {
    const open = { open_ratio: 1, outages: 0, mttr_seconds: null };
    expect(await json('/api/v1/availability?window=24h')).toEqual({
      status: 200,
      body: {
        window: '24h',
        networks: [
          { exchange: 'main', coin: 'BTC', network: 'BTC', deposit: { open_ratio: 0.5, outages: 1, mttr_seconds: null }, withdraw: open },
          { exchange: 'main', coin: 'USDT', network: 'ETH', deposit: open, withdraw: { open_ratio: 0.4, outages: 0, mttr_seconds: null } },
          { exchange: 'main', coin: 'USDT', network: 'TRX', deposit: open, withdraw: { open_ratio: 0.8, outages: 1, mttr_seconds: 7200 } },
        ],
        exchanges: [
          { exchange: 'main', since: iso(T0), deposit: { open_ratio: 0.833333, outages: 1, mttr_seconds: null }, withdraw: { open_ratio: 0.733333, outages: 1, mttr_seconds: 7200 } },
        ],
      },
    });
  });

  it('a window shorter than the history counts only its own span; the default window is 7d; filters apply', async () => {
    const r = (await json('/api/v1/availability?window=1h&coin=BTC')).body as { window: string; networks: { deposit: unknown }[] };
    expect([r.window, r.networks.length, r.networks[0]!.deposit]).toEqual(['1h', 1, { open_ratio: 0, outages: 0, mttr_seconds: null }]);
    expect(((await json('/api/v1/availability')).body as { window: string }).window).toBe('7d');
    for (const w of ['30m', '91d', '7x', '0h']) expect((await json(`/api/v1/availability?window=${w}`)).status).toBe(400);
  });
});

describe('GET /feed.atom', () => {
  async function feed(q = ''): Promise<{ res: Response; text: string }> {
    const res = await fetch(`${http.url}/feed.atom${q}`);
    return { res, text: await res.text() };
  }

  it('is Atom 1.0: a feed with id, title, updated and author, an entry per change newest first, upstream text escaped', async () => {
    const { res, text } = await feed();
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const root = parseXml(text);
    expect([root.name, root.attrs.xmlns]).toEqual(['feed', 'http://www.w3.org/2005/Atom']);
    for (const name of ['id', 'title', 'updated', 'author']) expect(child(root, name)).toBeDefined();
    expect(child(root, 'updated').text).toBe(iso(T0 + 6 * H));
    const entries = childrenNamed(root, 'entry');
    expect(entries.map((e) => child(e, 'category').attrs.term)).toEqual(['withdraw_enabled', 'deposit_disabled', 'withdraw_enabled', 'withdraw_desc_changed', 'withdraw_desc_set', 'withdraw_disabled']);
    const set = entries[4]!;
    expect(child(set, 'title').text).toBe('main: USDT on TRX: withdrawal message');
    expect(child(set, 'summary').text).toContain('none → maintenance <b>&');
    expect(text).toContain('maintenance &lt;b&gt;&amp;');
    for (const e of entries) {
      expect(child(e, 'id').text).toMatch(/^tag:spotwatch,2024:change:\d+:\d+$/);
      expect(Date.parse(child(e, 'updated').text)).not.toBeNaN();
    }
  });

  it('keeps entry ids stable from one read to the next, and filters by exchange, coin and kind', async () => {
    const ids = async (q = '') => childrenNamed(parseXml((await feed(q)).text), 'entry').map((e) => child(e, 'id').text);
    const all = await ids();
    expect(await ids()).toEqual(all);
    expect(await ids('?kind=withdraw_enabled')).toEqual([all[0], all[2]]);
    expect(await ids('?coin=BTC')).toEqual([all[1]]);
    expect(await ids('?exchange=other')).toEqual([]);
    expect((await feed('?kind=nope')).res.status).toBe(400);
  });

  it('writes control and bidi characters (which XML cannot hold, or which reorder a line) as visible escapes, noncharacters as U+FFFD, still well-formed', async () => {
    t.store.appendChanges([change('withdraw_desc_set', 'BTC', 'BTC', T0 + 7 * H, 'bad \u0001 byte </entry> \u001b[31mred\u0007\u0000\u202Eesrever \uFFFE')]);
    const { text } = await feed('?coin=BTC');
    // eslint-disable-next-line no-control-regex -- the control characters it must not find
    expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u202e\ufffe]/);
    const entry = childrenNamed(parseXml(text), 'entry')[0]!;
    expect(child(entry, 'summary').text).toContain('bad \\u0001 byte </entry> \\u001b[31mred\\u0007\\u0000\\u202eesrever \uFFFD');
  });
});

describe('GET /badge/{exchange}/{coin}/{network}.svg', () => {
  it('shows deposits and withdrawals open or closed, as well-formed SVG with cache headers', async () => {
    const res = await fetch(`${http.url}/badge/main/BTC/BTC.svg`);
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([200, 'image/svg+xml; charset=utf-8', 'public, max-age=60, stale-while-revalidate=60']);
    const svg = parseXml(await res.text());
    expect([svg.name, svg.attrs.xmlns]).toEqual(['svg', 'http://www.w3.org/2000/svg']);
    expect(child(svg, 'title').text).toBe('BTC BTC: deposit closed, withdraw open');
    const texts = childrenNamed(svg, 'g')[1]!.children.map((c) => c.text);
    expect(texts).toEqual(['BTC BTC', 'BTC BTC', 'deposit closed', 'deposit closed', 'withdraw open', 'withdraw open']);
  });

  it('a network not watched: 404 with an "unknown" badge, its names escaped', async () => {
    const res = await fetch(`${http.url}/badge/main/${encodeURIComponent('<x&y>')}/${encodeURIComponent('"q"')}.svg`);
    const text = await res.text();
    expect(res.status).toBe(404);
    expect(child(parseXml(text), 'title').text).toBe('<x&y> "q": unknown');
    expect(text).not.toContain('<x&y>');
  });

  it('a name with control and bidi characters: shown as visible escapes, the badge as wide as what it shows', async () => {
    const res = await fetch(`${http.url}/badge/main/${encodeURIComponent('\u001b[31mX\u0007\u0000')}/${encodeURIComponent('\u202Eesrever')}.svg`);
    const text = await res.text();
    // eslint-disable-next-line no-control-regex -- the control characters it must not find
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    const svg = parseXml(text);
    const label = '\\u001b[31mX\\u0007\\u0000 \\u202eesrever';
    expect(child(svg, 'title').text).toBe(`${label}: unknown`);
    expect(svg.attrs.width).toBe(String(label.length * 7 + 10 + 'unknown'.length * 7 + 10));
  });
});

describe('the strict XML reader these tests use', () => {
  it('refuses what is not well-formed', () => {
    for (const bad of ['<a>&</a>', '<a>&foo;</a>', '<a><b></a>', '<a x=1/>', '<a x="1" x="2"/>', '<a/><b/>', '<a>\u0001</a>', '<a>x', '<!DOCTYPE a><a/>']) expect(() => parseXml(bad)).toThrow();
    expect(parseXml('<?xml version="1.0" encoding="utf-8"?>\n<a k="&quot;&#x41;"><b>&lt;&amp;&#66;</b></a>\n')).toEqual({ name: 'a', attrs: { k: '"A' }, text: '', children: [{ name: 'b', attrs: {}, text: '<&B', children: [] }] });
  });
});
