import { applyRead, EMPTY_NOTICES, KEEP_ENDED_MS, openWindows, type MentionsOf } from '../../src/notices/book';
import type { Maintenance, NoticeRead } from '../../src/notices/model';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 27, 12);
const none: MentionsOf = () => ({ coins: [], symbols: [], chains: [] });
const byTicker: MentionsOf = (title) => ({ coins: /\(([A-Z]+)\)/.exec(title)?.slice(1) ?? [], symbols: [], chains: [] });

const window = (over: Partial<Omit<Maintenance, 'exchange'>> = {}): Omit<Maintenance, 'exchange'> => ({
  id: 'w1', title: 'Spot system upgrade', state: 'scheduled', begins: T0 + 2 * H, ends: T0 + 3 * H, origin: 'planned', scope: 'exchange',
  coins: [], symbols: [], url: null, source: 'bybit-status', ...over,
});
const judge = { vanished: 'judge' } as const;

describe('applyRead: status', () => {
  it('keeps since while the state holds, takes the source start when it sends one, and "" as no message', () => {
    const first = applyRead(EMPTY_NOTICES, 'kc', 'kucoin-status', { status: { state: 'normal', message: '', since: null } }, T0, none, judge).book;
    expect(first.status).toEqual({ exchange: 'kc', state: 'normal', message: null, since: T0, checked: T0 });
    const again = applyRead(first, 'kc', 'kucoin-status', { status: { state: 'normal', message: null, since: null } }, T0 + 60_000, none, judge).book;
    expect(again.status).toEqual({ exchange: 'kc', state: 'normal', message: null, since: T0, checked: T0 + 60_000 });
    const halted = applyRead(again, 'kc', 'kucoin-status', { status: { state: 'cancel_only', message: 'upgrade', since: T0 + 30_000 } }, T0 + 120_000, none, judge).book;
    expect(halted.status).toEqual({ exchange: 'kc', state: 'cancel_only', message: 'upgrade', since: T0 + 30_000, checked: T0 + 120_000 });
  });
});

describe('applyRead: maintenance windows', () => {
  it('tells a window first seen and each change of its state, and nothing when it is read again unchanged', () => {
    const r1 = applyRead(EMPTY_NOTICES, 'by', 'bybit-status', { maintenance: [window()] }, T0, none, judge);
    expect(r1.windows).toEqual([{ window: { ...window(), exchange: 'by' }, from: undefined }]);
    const r2 = applyRead(r1.book, 'by', 'bybit-status', { maintenance: [window()] }, T0 + 60_000, none, judge);
    expect(r2.windows).toEqual([]);
    expect(r2.book.windows.get('bybit-status\u0000w1')).toBe(r1.book.windows.get('bybit-status\u0000w1'));
    expect(r2.book.windows.get('bybit-status\u0000w1')).toBeDefined();
    const r3 = applyRead(r2.book, 'by', 'bybit-status', { maintenance: [window({ state: 'ongoing' })] }, T0 + 2 * H, none, judge);
    expect(r3.windows).toEqual([{ window: { ...window({ state: 'ongoing' }), exchange: 'by' }, from: 'scheduled' }]);
  });

  it('judges a window that left the list: canceled before it began, completed after (its end, else now)', () => {
    const known = applyRead(EMPTY_NOTICES, 'by', 'bybit-status', { maintenance: [window(), window({ id: 'w2', state: 'ongoing', begins: T0 - H, ends: null })] }, T0, none, judge).book;
    const r = applyRead(known, 'by', 'bybit-status', { maintenance: [] }, T0 + H, none, judge);
    expect(r.windows.map((c) => [c.window.id, c.from, c.window.state, c.window.ends])).toEqual([
      ['w1', 'scheduled', 'canceled', T0 + 3 * H],
      ['w2', 'ongoing', 'completed', T0 + H],
    ]);
  });

  it('takes what the follow-up says (OKX), and judges a window it could not tell about for now, asking again until it does', () => {
    const okx = { vanished: 'ask' } as const;
    const w1 = window({ source: 'okx-status' });
    const w2 = window({ id: 'w2', source: 'okx-status', state: 'ongoing', begins: T0 - H, ends: T0 + 30 * 60_000 });
    const known = applyRead(EMPTY_NOTICES, 'ok', 'okx-status', { maintenance: [w1, w2] }, T0, none, okx).book;
    expect(openWindows(known, 'okx-status').map((w) => w.id)).toEqual(['w1', 'w2']);
    // The follow-up failed: neither is left scheduled or ongoing past its end; both are asked about again.
    const failed = applyRead(known, 'ok', 'okx-status', { maintenance: [], unsettled: ['w1', 'w2'] }, T0 + H, none, okx);
    expect(failed.windows.map((c) => [c.window.id, c.from, c.window.state, c.window.ends])).toEqual([
      ['w1', 'scheduled', 'canceled', T0 + 3 * H],
      ['w2', 'ongoing', 'completed', T0 + 30 * 60_000],
    ]);
    expect([...failed.book.unsettled]).toEqual(['okx-status\u0000w1', 'okx-status\u0000w2']);
    expect(openWindows(failed.book, 'okx-status').map((w) => w.id)).toEqual(['w1', 'w2']);
    // The next follow-up says where w1 went; w2 it still cannot tell.
    const told = applyRead(failed.book, 'ok', 'okx-status', { maintenance: [{ ...w1, state: 'completed', begins: T0 + H, ends: T0 + H }], unsettled: ['w2'] }, T0 + H + 60_000, none, okx);
    expect(told.windows.map((c) => [c.window.id, c.from, c.window.state])).toEqual([['w1', 'canceled', 'completed']]);
    expect([...told.book.unsettled]).toEqual(['okx-status\u0000w2']);
    // A follow-up that answered without it: in no list, it stays as judged, settled.
    const settled = applyRead(told.book, 'ok', 'okx-status', { maintenance: [] }, T0 + 2 * H, none, okx);
    expect([settled.windows, [...settled.book.unsettled], openWindows(settled.book, 'okx-status')]).toEqual([[], [], []]);
    expect(settled.book.windows.get('okx-status\u0000w2')?.state).toBe('completed');
  });

  it('never judges another source\'s windows, and forgets ended windows after KEEP_ENDED_MS', () => {
    const known = applyRead(EMPTY_NOTICES, 'by', 'statuspage', { maintenance: [window({ source: 'statuspage' })] }, T0, none, judge).book;
    expect(applyRead(known, 'by', 'bybit-status', { maintenance: [] }, T0 + H, none, judge).windows).toEqual([]);
    const done = applyRead(known, 'by', 'statuspage', { maintenance: [window({ source: 'statuspage', state: 'completed' })] }, T0 + 4 * H, none, judge).book;
    expect(applyRead(done, 'by', 'statuspage', { maintenance: [] }, T0 + 3 * H + KEEP_ENDED_MS + 1, none, judge).book.windows.size).toBe(0);
  });
});

describe('applyRead: announcements', () => {
  const read = (...ids: string[]): NoticeRead => ({
    announcements: ids.map((id) => ({ id, kind: 'delisting' as const, title: `Will delist Token (${id.toUpperCase()})`, url: `https://example.invalid/${id}`, published: T0, source: 'okx-announcements' })),
  });

  it('takes the first read as the baseline (counted, no event), then each new one is an event once, with its mentions', () => {
    const first = applyRead(EMPTY_NOTICES, 'ok', 'okx-announcements', read('abc', 'def'), T0, byTicker, judge);
    expect(first.published).toEqual([]);
    expect(first.firstRead.map((a) => a.id)).toEqual(['abc', 'def']);
    const next = applyRead(first.book, 'ok', 'okx-announcements', read('abc', 'def', 'xyz'), T0 + 60_000, byTicker, judge);
    expect(next.published).toEqual([
      { id: 'xyz', kind: 'delisting', title: 'Will delist Token (XYZ)', url: 'https://example.invalid/xyz', published: T0, source: 'okx-announcements', exchange: 'ok', coins: ['XYZ'], symbols: [], chains: [] },
    ]);
    expect(applyRead(next.book, 'ok', 'okx-announcements', read('xyz'), T0 + 120_000, byTicker, judge).published).toEqual([]);
  });
});
