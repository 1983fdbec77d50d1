import { createApp } from '../../src/http/app';
import { feedItems, renderFeed } from '../../src/http/feed';
import type { HistorySource } from '../../src/http/history-api';
import { listen } from '../../src/http/server';
import type { StatusView } from '../../src/http/status-page';
import type { NoticeLists } from '../../src/notices/book-json';
import type { Announcement, Maintenance } from '../../src/notices/model';
import type { StoredChange } from '../../src/storage/port';
import { child, childrenNamed, parseXml } from '../support/xml';

const T = Date.UTC(2026, 10, 27, 12, 0, 0);
const H = 3_600_000;

const ann: Announcement = {
  exchange: 'bybit', id: 'https://ann.test/7?a=1&b=2', kind: 'delisting', title: 'Will Delist Tether (USDT) & <ETH>', url: 'https://ann.test/7?a=1&b=2', published: T - H,
  coins: ['USDT'], symbols: [], chains: ['tron'], source: 'bybit-announcements',
};
const win: Maintenance = {
  exchange: 'bybit', id: 'w1', title: 'Wallet <maintenance>', state: 'scheduled', begins: T + 2 * H, ends: null, origin: 'planned', scope: 'funding',
  coins: ['BTC'], symbols: [], url: null, source: 'statuspage',
};
const change: StoredChange = { id: 3, kind: 'withdraw_disabled', exchange: 'bybit', coin: 'USDT', network: 'TRX', before: true, after: false, at: T - 2 * H } as StoredChange;

describe('the feed\'s notice entries', () => {
  it('puts changes, announcements and windows in one list, newest first (a window by its begin), cut at the limit', () => {
    expect(feedItems([change], [ann], [win], 10).map((i) => i.type)).toEqual(['maintenance', 'announcement', 'change']);
    expect(feedItems([change], [ann], [win], 2).map((i) => i.type)).toEqual(['maintenance', 'announcement']);
  });

  it('writes an entry per announcement and per window, with its link, its category and every upstream text escaped; the feed updated by its newest entry not in the future', () => {
    const text = renderFeed(feedItems([change], [ann], [win], 10), {}, T);
    expect(text).toContain('<title>bybit: Will Delist Tether (USDT) &amp; &lt;ETH&gt;</title>');
    const root = parseXml(text);
    expect(child(root, 'title').text).toBe('spotwatch: changes and notices');
    expect(child(root, 'updated').text).toBe('2026-11-27T11:00:00.000Z');
    const entries = childrenNamed(root, 'entry');
    expect(entries.map((e) => [child(e, 'id').text, child(e, 'title').text, child(e, 'updated').text, child(e, 'category').attrs.term, childrenNamed(e, 'link').map((l) => l.attrs.href), child(e, 'summary').text])).toEqual([
      [
        'tag:spotwatch,2024:maintenance:bybit:statuspage:w1', 'bybit: Wallet <maintenance> (maintenance scheduled)', '2026-11-27T14:00:00.000Z', 'maintenance', [],
        'maintenance scheduled, planned, scope funding: begins 2026-11-27T14:00:00.000Z, ends unknown (bybit, statuspage; coins BTC)',
      ],
      [
        'tag:spotwatch,2024:announcement:bybit:https%3A%2F%2Fann.test%2F7%3Fa%3D1%26b%3D2', 'bybit: Will Delist Tether (USDT) & <ETH>', '2026-11-27T11:00:00.000Z', 'announcement', ['https://ann.test/7?a=1&b=2'],
        'delisting announcement (bybit, published 2026-11-27T11:00:00.000Z; coins USDT; chains tron)',
      ],
      ['tag:spotwatch,2024:change:3:1795773600000', 'bybit: USDT on TRX: withdrawals closed', '2026-11-27T10:00:00.000Z', 'withdraw_disabled', [], 'withdraw_disabled: true → false (bybit USDT TRX, 2026-11-27T10:00:00.000Z)'],
    ]);
  });
});

describe('GET /feed.atom with notices', () => {
  const lists: NoticeLists[] = [{ status: null, windows: [win], announcements: [ann] }];
  const history: HistorySource = {
    outages: () => [],
    totals: () => [],
    watching: () => new Map(),
    networks: () => [],
    network: () => undefined,
    changes: (q) => (q.kind === undefined || q.kind === change.kind ? [change] : []),
    notices: () => lists,
    now: () => T,
  };

  it('filters by kind (a change kind, announcement or maintenance) and by the coin a notice names; a kind of neither is 400', async () => {
    const http = await listen(
      createApp({
        ready: () => true,
        metrics: { contentType: 'text/plain', render: async () => '', renderGzip: async () => [] },
        api: { alerts: () => [], changes: () => [], state: () => ({ data: { exchanges: [], routes: [] }, next: null }), deadLetters: () => [], silences: { list: () => [], save: () => undefined }, now: () => T },
        reload: async () => ({ ok: true }),
        statusView: () => ({}) as StatusView,
        history,
      }),
      '127.0.0.1',
      0,
    );
    try {
      const terms = async (q: string) => childrenNamed(parseXml(await (await fetch(`${http.url}/feed.atom${q}`)).text()), 'entry').map((e) => child(e, 'category').attrs.term);
      expect(await terms('')).toEqual(['maintenance', 'announcement', 'withdraw_disabled']);
      expect(await terms('?kind=announcement')).toEqual(['announcement']);
      expect(await terms('?kind=maintenance')).toEqual(['maintenance']);
      expect(await terms('?kind=withdraw_disabled')).toEqual(['withdraw_disabled']);
      expect(await terms('?coin=BTC&kind=maintenance')).toEqual(['maintenance']);
      expect(await terms('?coin=BTC&kind=announcement')).toEqual([]);
      expect(await terms('?exchange=okx&kind=announcement')).toEqual([]);
      expect(await terms('?limit=1')).toEqual(['maintenance']);
      const title = child(parseXml(await (await fetch(`${http.url}/feed.atom?kind=announcement&exchange=bybit`)).text()), 'title').text;
      expect(title).toBe('spotwatch: announcements on bybit');
      const bad = await fetch(`${http.url}/feed.atom?kind=news`);
      expect([bad.status, await bad.json()]).toEqual([400, { status: 'error', error: 'kind: a change kind, announcement or maintenance' }]);
    } finally {
      await http.close();
    }
  });
});
