import { applyRead, EMPTY_NOTICES, type NoticeBook } from '../../src/notices/book';
import { explain, noticeAnnotation, type Closure } from '../../src/notices/explain';
import type { Announcement, Maintenance } from '../../src/notices/model';

const H = 3_600_000;
const D = 24 * H;
const T0 = Date.UTC(2026, 10, 27, 12);

function book(windows: Omit<Maintenance, 'exchange'>[], announcements: Omit<Announcement, 'exchange'>[] = []): NoticeBook {
  let b = applyRead(EMPTY_NOTICES, 'ok', 'w', { maintenance: windows }, T0, () => ({ coins: [], symbols: [], chains: [] }), { vanished: 'ask' }).book;
  const byId = new Map(announcements.map((a) => [a.id, a]));
  b = applyRead(b, 'ok', 'a', { announcements: announcements.map(({ coins: _c, symbols: _s, chains: _h, ...a }) => a) }, T0, (title) => {
    const a = [...byId.values()].find((x) => x.title === title)!;
    return { coins: a.coins, symbols: a.symbols, chains: a.chains };
  }, { vanished: 'ask' }).book;
  return b;
}
const w = (over: Partial<Omit<Maintenance, 'exchange'>>): Omit<Maintenance, 'exchange'> => ({
  id: 'w', title: 'Wallet maintenance', state: 'scheduled', begins: T0, ends: T0 + 2 * H, origin: 'planned', scope: 'funding', coins: [], symbols: [], url: 'https://x.invalid/w', source: 'w', ...over,
});
const a = (over: Partial<Omit<Announcement, 'exchange'>>): Omit<Announcement, 'exchange'> => ({
  id: 'a', kind: 'maintenance', title: 'USDT (TRC20) network upgrade', url: null, published: T0 - D, coins: ['USDT'], symbols: [], chains: ['tron'], source: 'a', ...over,
});
const closure = (over: Partial<Closure> = {}): Closure => ({ coin: 'USDT', chain: 'tron', at: T0 + H, ...over });

describe('explain', () => {
  it.each<[string, Omit<Maintenance, 'exchange'>[], Closure, string | undefined]>([
    ['an ongoing window of the exchange', [w({ state: 'ongoing', scope: 'exchange', begins: T0 - 5 * H })], closure(), 'w'],
    ['a window that begins within the hour after the closure', [w({ begins: T0 + 90 * 60_000 })], closure(), 'w'],
    ['a window that began 59 minutes before', [w({ begins: T0 + H - 59 * 60_000, ends: null })], closure(), 'w'],
    ['a window that ended within the hour before', [w({ state: 'completed', begins: T0 - 5 * H, ends: T0 + 30 * 60_000 })], closure(), 'w'],
    ['not a window two hours away', [w({ begins: T0 + 3 * H + 1, ends: T0 + 4 * H })], closure(), undefined],
    ['not a trading window', [w({ state: 'ongoing', scope: 'trading' })], closure(), undefined],
    ['not a window naming other coins', [w({ state: 'ongoing', coins: ['BTC'] })], closure(), undefined],
    ['a window naming this coin', [w({ state: 'ongoing', coins: ['BTC', 'USDT'] })], closure(), 'w'],
    ['not a canceled window', [w({ state: 'canceled' })], closure(), undefined],
  ])('%s', (_name, windows, c, id) => {
    expect(explain(book(windows), c, T0 + H, 14 * D)?.notice.id).toBe(id);
  });

  it.each<[string, Omit<Announcement, 'exchange'>, Closure, boolean]>([
    ['a maintenance announcement naming the coin and the chain', a({}), closure(), true],
    ['a delisting naming the coin, no chain', a({ kind: 'delisting', chains: [] }), closure({ chain: 'ethereum' }), true],
    ['not one naming another chain', a({}), closure({ chain: 'ethereum' }), false],
    ['not one for an unknown chain when it names chains', a({}), closure({ chain: undefined }), false],
    ['not a listing', a({ kind: 'listing' }), closure(), false],
    ['not one published before explains_for', a({ published: T0 + H - 14 * D - 1 }), closure(), false],
    ['not one naming another coin', a({ coins: ['BTC'] }), closure(), false],
  ])('%s', (_name, ann, c, explained) => {
    expect(explain(book([], [ann]), c, T0 + H, 14 * D)?.notice.id).toBe(explained ? 'a' : undefined);
  });

  it('writes the notice annotation as title and URL, or none', () => {
    expect(noticeAnnotation(explain(book([w({ state: 'ongoing' })]), closure(), T0 + H, 14 * D))).toBe('Wallet maintenance https://x.invalid/w');
    expect(noticeAnnotation(explain(book([], [a({})]), closure(), T0 + H, 14 * D))).toBe('USDT (TRC20) network upgrade');
    expect(noticeAnnotation(undefined)).toBe('none');
  });
});
