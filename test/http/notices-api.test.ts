import { createApp, type HttpSource } from '../../src/http/app';
import { noticesView, parseNoticeQuery } from '../../src/http/notices-api';
import { listen } from '../../src/http/server';
import type { NoticeLists } from '../../src/notices/book-json';
import type { Announcement, Maintenance } from '../../src/notices/model';

const T = Date.UTC(2026, 10, 27, 12, 0, 0);
const H = 3_600_000;

const window = (exchange: string, id: string, begins: number, coins: string[] = []): Maintenance => ({
  exchange, id, title: `window ${id}`, state: 'scheduled', begins, ends: begins + H, origin: 'planned', scope: 'funding', coins, symbols: [], url: null, source: 'statuspage',
});
const ann = (exchange: string, id: string, published: number, coins: string[] = []): Announcement => ({
  exchange, id, kind: 'delisting', title: `Delisting ${id}`, url: `https://x.test/${id}`, published, coins, symbols: [], chains: [], source: 'bybit-announcements',
});

const LISTS: NoticeLists[] = [
  { status: { exchange: 'okx', state: 'normal', message: null, since: T - H, checked: T }, windows: [window('okx', 'o1', T + H, ['BTC'])], announcements: [ann('okx', 'oa', T - 2 * H, ['ETH'])] },
  { status: null, windows: [window('bybit', 'b1', T + 2 * H, ['USDT']), window('bybit', 'b2', T - 5 * H)], announcements: [ann('bybit', 'ba', T - H, ['USDT']), ann('bybit', 'bb', T - 3 * H)] },
  { status: { exchange: 'binance', state: 'maintenance', message: 'upgrade', since: T - 2 * H, checked: T }, windows: [], announcements: [] },
];

describe('the query of /api/v1/notices', () => {
  it.each([
    [{}, { limit: 100 }],
    [{ exchange: 'okx', kind: 'maintenance', coin: 'USDT', since: '2026-11-27T11:00:00Z', limit: '5' }, { exchange: 'okx', kind: 'maintenance', coin: 'USDT', since: T - H, limit: 5 }],
    [{ kind: 'announcement', since: String(T) }, { kind: 'announcement', since: T, limit: 100 }],
    [{ kind: 'status', limit: '1000' }, { kind: 'status', limit: 1000 }],
    [{ exchange: '', coin: '' }, { limit: 100 }],
  ])('%j reads as %j', (q, expected) => {
    expect(parseNoticeQuery(q)).toEqual(expected);
  });

  it.each([
    [{ kind: 'announcements' }, 'kind: one of status, maintenance, announcement'],
    [{ kind: 'STATUS' }, 'kind: one of status, maintenance, announcement'],
    [{ since: 'yesterday' }, 'since: use RFC 3339 or milliseconds since the epoch'],
    [{ since: '99999999999999999999' }, 'since: use RFC 3339 or milliseconds since the epoch'],
    [{ limit: '0' }, 'limit: a whole number from 1 to 1000'],
    [{ limit: '-1' }, 'limit: a whole number from 1 to 1000'],
    [{ limit: '5000' }, 'limit: a whole number from 1 to 1000'],
  ])('%j is refused: %s', (q, error) => {
    expect(parseNoticeQuery(q)).toBe(error);
  });
});

describe('the lists of /api/v1/notices', () => {
  it('lists every exchange\'s notices newest first (windows by begins, announcements by published), statuses by exchange, times in RFC 3339', () => {
    const v = noticesView(LISTS, { limit: 100 });
    expect(v.status).toEqual([
      { exchange: 'binance', state: 'maintenance', message: 'upgrade', since: '2026-11-27T10:00:00.000Z', checked: '2026-11-27T12:00:00.000Z' },
      { exchange: 'okx', state: 'normal', message: null, since: '2026-11-27T11:00:00.000Z', checked: '2026-11-27T12:00:00.000Z' },
    ]);
    expect(v.maintenance.map((w) => w.id)).toEqual(['b1', 'o1', 'b2']);
    expect(v.maintenance[0]).toEqual({
      exchange: 'bybit', id: 'b1', title: 'window b1', state: 'scheduled', begins: '2026-11-27T14:00:00.000Z', ends: '2026-11-27T15:00:00.000Z',
      origin: 'planned', scope: 'funding', coins: ['USDT'], symbols: [], url: null, source: 'statuspage',
    });
    expect(v.announcements.map((a) => a.id)).toEqual(['ba', 'oa', 'bb']);
    expect(v.announcements[0]).toEqual({
      exchange: 'bybit', id: 'ba', kind: 'delisting', title: 'Delisting ba', url: 'https://x.test/ba', published: '2026-11-27T11:00:00.000Z',
      coins: ['USDT'], symbols: [], chains: [], source: 'bybit-announcements',
    });
  });

  it('filters by exchange, kind, coin (a status names none) and since (the status kept: it is the exchange now), and cuts each list at the limit', () => {
    const ids = (v: ReturnType<typeof noticesView>) => [v.status.map((s) => s.exchange), v.maintenance.map((w) => w.id), v.announcements.map((a) => a.id)];
    expect(ids(noticesView(LISTS, { exchange: 'bybit', limit: 100 }))).toEqual([[], ['b1', 'b2'], ['ba', 'bb']]);
    expect(ids(noticesView(LISTS, { kind: 'maintenance', limit: 100 }))).toEqual([[], ['b1', 'o1', 'b2'], []]);
    expect(ids(noticesView(LISTS, { kind: 'status', limit: 100 }))).toEqual([['binance', 'okx'], [], []]);
    expect(ids(noticesView(LISTS, { coin: 'USDT', limit: 100 }))).toEqual([[], ['b1'], ['ba']]);
    expect(ids(noticesView(LISTS, { since: T - H, limit: 100 }))).toEqual([['binance', 'okx'], ['b1', 'o1'], ['ba']]);
    expect(ids(noticesView(LISTS, { limit: 1 }))).toEqual([['binance'], ['b1'], ['ba']]);
  });
});

describe('GET /api/v1/notices', () => {
  const source = (over: Partial<HttpSource> = {}): HttpSource => ({
    ready: () => true,
    metrics: { contentType: 'text/plain', render: async () => '', renderGzip: async () => [] },
    api: { alerts: () => [], changes: () => [], state: () => ({ data: { exchanges: [], routes: [] }, next: null }), deadLetters: () => [], silences: { list: () => [], save: () => undefined }, now: () => T },
    reload: async () => ({ ok: true }),
    statusView: () => {
      throw new Error('not shown');
    },
    notices: () => LISTS,
    ...over,
  });

  it('answers the lists, 400 for a bad kind, 405 for another method, and 401 without the bearer token when one is set', async () => {
    const open = await listen(createApp(source()), '127.0.0.1', 0);
    const locked = await listen(createApp(source({ bearerToken: 'tok' })), '127.0.0.1', 0);
    try {
      const ok = await fetch(`${open.url}/api/v1/notices?kind=status`);
      expect([ok.status, await ok.json()]).toEqual([200, { status: noticesView(LISTS, { kind: 'status', limit: 100 }).status, maintenance: [], announcements: [] }]);
      const bad = await fetch(`${open.url}/api/v1/notices?kind=news`);
      expect([bad.status, await bad.json()]).toEqual([400, { status: 'error', error: 'kind: one of status, maintenance, announcement' }]);
      const twice = await fetch(`${open.url}/api/v1/notices?coin=A&coin=B`);
      expect([twice.status, await twice.json()]).toEqual([400, { status: 'error', error: 'coin: give this parameter once' }]);
      const post = await fetch(`${open.url}/api/v1/notices`, { method: 'POST' });
      expect([post.status, post.headers.get('allow'), await post.json()]).toEqual([405, 'GET, HEAD, OPTIONS', { status: 'error', error: 'method POST not allowed on /api/v1/notices (allowed: GET, HEAD, OPTIONS)' }]);
      expect((await fetch(`${locked.url}/api/v1/notices`)).status).toBe(401);
      const authorized = await fetch(`${locked.url}/api/v1/notices?exchange=okx&kind=announcement`, { headers: { authorization: 'Bearer tok' } });
      expect([authorized.status, ((await authorized.json()) as { announcements: { id: string }[] }).announcements.map((a) => a.id)]).toEqual([200, ['oa']]);
    } finally {
      await open.close();
      await locked.close();
    }
  });
});
