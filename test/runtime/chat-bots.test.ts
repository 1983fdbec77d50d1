import { botContext, botNotices, type BotReads } from '../../src/runtime/chat-bots';
import type { NoticeLists } from '../../src/notices/book-json';
import type { Announcement, Maintenance } from '../../src/notices/model';

const H = 3_600_000;
const NOW = Date.UTC(2026, 0, 2, 12);

const window = (w: Partial<Maintenance>): Maintenance => ({
  exchange: 'bybit', id: 'w', title: 'w', state: 'scheduled', begins: NOW, ends: null, origin: 'planned', scope: 'exchange', coins: [], symbols: [], url: null, source: 'statuspage', ...w,
});
const announcement = (a: Partial<Announcement>): Announcement => ({
  exchange: 'bybit', id: 'a', kind: 'other', title: 'a', url: null, published: NOW, coins: [], symbols: [], chains: [], source: 'bybit-announcements', ...a,
});

describe('/notices as the main thread reads it for the bots', () => {
  const lists: NoticeLists[] = [
    {
      status: null,
      windows: [
        window({ id: 'later', title: 'Next month', begins: NOW + 30 * 24 * H }),
        window({ id: 'now', title: 'Wallets', state: 'ongoing', begins: NOW - H, ends: NOW + H, coins: ['USDT'], url: 'https://s/now' }),
        window({ id: 'now', title: 'Wallets', state: 'ongoing', begins: NOW - H, ends: NOW + H, coins: ['USDT'], url: 'https://s/now', source: 'bybit-status' }),
        window({ id: 'done', title: 'Done', state: 'completed', begins: NOW - 3 * H, ends: NOW - 2 * H }),
      ],
      announcements: [
        announcement({ id: 'old', title: 'Eight days ago', published: NOW - 8 * 24 * H }),
        announcement({ id: 'week', title: 'Seven days ago', published: NOW - 7 * 24 * H, kind: 'delisting', coins: ['ETH'] }),
      ],
    },
    { status: null, windows: [], announcements: [announcement({ exchange: 'okx', id: 'new', title: 'Today', published: NOW - H, coins: ['USDT'], url: 'https://a/new' })] },
  ];

  it('keeps the windows ongoing (shown once when two sources tell one) and every one scheduled, and the announcements of the last 7 days, newest first', () => {
    expect(botNotices(lists, NOW)).toEqual({
      windows: [
        { exchange: 'bybit', title: 'Wallets', state: 'ongoing', begins: NOW - H, ends: NOW + H, coins: ['USDT'], url: 'https://s/now' },
        { exchange: 'bybit', title: 'Next month', state: 'scheduled', begins: NOW + 30 * 24 * H, ends: null, coins: [], url: null },
      ],
      announcements: [
        { exchange: 'okx', kind: 'other', title: 'Today', published: NOW - H, coins: ['USDT'], url: 'https://a/new' },
        { exchange: 'bybit', kind: 'delisting', title: 'Seven days ago', published: NOW - 7 * 24 * H, coins: ['ETH'], url: null },
      ],
    });
  });

  it('the engine\'s context gives them all, or those naming a coin (any case)', async () => {
    const reads: BotReads = { status: { exchanges: [], firing: 0 }, closed: [], notices: botNotices(lists, NOW) };
    const ctx = botContext({ now: () => NOW, wall: () => NOW, stateDir: '/nonexistent', reads: async () => reads, silences: { list: () => [], save: () => undefined }, onIgnored: () => undefined });
    expect(ctx.notices()).toEqual({ windows: [], announcements: [] });
    await ctx.refresh?.();
    expect(ctx.notices()).toEqual(reads.notices);
    expect(ctx.notices('usdt')).toEqual({ windows: [reads.notices.windows[0]], announcements: [reads.notices.announcements[0]] });
    expect(ctx.notices('BTC')).toEqual({ windows: [], announcements: [] });
  });
});
