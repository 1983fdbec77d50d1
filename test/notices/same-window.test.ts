import type { Maintenance } from '../../src/notices/model';
import { oneWindowEach, sameWindow } from '../../src/notices/same-window';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 27, 12);
const w = (over: Partial<Maintenance>): Maintenance => ({
  exchange: 'ok', id: 'okx-1', title: 'Wallet maintenance', state: 'scheduled', begins: T0, ends: T0 + 2 * H, origin: 'planned', scope: 'funding',
  coins: [], symbols: [], url: null, source: 'okx-status', ...over,
});
const page = (over: Partial<Maintenance> = {}): Maintenance => w({ id: 'sp-1', title: 'USDT wallet', source: 'statuspage', coins: ['USDT'], url: 'https://stspg.io/x', ...over });

describe('one window through two sources', () => {
  it.each<[string, Maintenance, Maintenance, boolean]>([
    ['overlapping times, the same scope, one naming no coin', w({}), page(), true],
    ['an unknown scope beside a known one', w({ scope: 'unknown' }), page(), true],
    ['an open end, beginning within the hour', w({ ends: null, begins: T0 + H }), page(), true],
    ['not an open end beginning a week before (an open end overlaps every later window)', w({ ends: null, begins: T0 - 7 * 24 * H, state: 'ongoing' }), page(), false],
    ['the whole exchange beside a part of it (a Statuspage window without components)', w({ scope: 'exchange' }), page({ scope: 'trading' }), true],
    ['not a canceled window', w({ state: 'canceled' }), page(), false],
    ['the same title moved at one source only (started early: the other still says in 2 h)', w({ state: 'ongoing', begins: T0 - 2 * H, ends: T0 - H }), page({ title: 'Wallet maintenance' }), true],
    ['not the same title a week apart', w({ begins: T0 + 7 * 24 * H, ends: T0 + 7 * 24 * H + H }), page({ title: 'Wallet maintenance' }), false],
    ['not from the same source', w({}), w({ id: 'okx-2' }), false],
    ['not another exchange', w({}), page({ exchange: 'by' }), false],
    ['not times apart', w({ begins: T0 + 3 * H, ends: T0 + 4 * H }), page(), false],
    ['not another scope', w({ scope: 'trading' }), page(), false],
    ['not other coins', w({ coins: ['ETH'] }), page(), false],
  ])('%s', (_what, a, b, same) => {
    expect([sameWindow(a, b), sameWindow(b, a)]).toEqual([same, same]);
  });

  it('reads a group as its first member seen, furthest along, with the scope its members name and every coin when one names none', () => {
    expect(oneWindowEach([w({ scope: 'unknown' }), page({ state: 'ongoing' }), w({ id: 'okx-2', scope: 'trading' })])).toEqual([
      // OKX's window names no coin: it covers every coin, and so does the one window (a BTC closure in it is explained).
      w({ state: 'ongoing', coins: [] }),
      w({ id: 'okx-2', scope: 'trading' }),
    ]);
    expect(oneWindowEach([w({ coins: ['USDT'] }), page()]).map((x) => x.coins)).toEqual([['USDT']]);
    // Seen first on the Statuspage: its identity stays when OKX tells the same window.
    expect(oneWindowEach([page(), w({})]).map((x) => [x.source, x.id])).toEqual([['statuspage', 'sp-1']]);
    // A canceled window is not the one another source still tells: each stands.
    expect(oneWindowEach([w({ state: 'canceled' }), page({ state: 'ongoing' })]).map((x) => [x.source, x.state])).toEqual([['okx-status', 'canceled'], ['statuspage', 'ongoing']]);
  });
});
