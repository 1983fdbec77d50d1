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
    ['an open end', w({ ends: null, begins: T0 + H }), page(), true],
    ['not from the same source', w({}), w({ id: 'okx-2' }), false],
    ['not another exchange', w({}), page({ exchange: 'by' }), false],
    ['not times apart', w({ begins: T0 + 3 * H, ends: T0 + 4 * H }), page(), false],
    ['not another scope', w({ scope: 'trading' }), page(), false],
    ['not other coins', w({ coins: ['ETH'] }), page(), false],
  ])('%s', (_what, a, b, same) => {
    expect([sameWindow(a, b), sameWindow(b, a)]).toEqual([same, same]);
  });

  it('reads a group as its first member seen, furthest along, with the coins and the scope its members name', () => {
    expect(oneWindowEach([w({ scope: 'unknown' }), page({ state: 'ongoing' }), w({ id: 'okx-2', scope: 'trading' })])).toEqual([
      w({ state: 'ongoing', coins: ['USDT'] }),
      w({ id: 'okx-2', scope: 'trading' }),
    ]);
    // Seen first on the Statuspage: its identity stays when OKX tells the same window.
    expect(oneWindowEach([page(), w({})]).map((x) => [x.source, x.id])).toEqual([['statuspage', 'sp-1']]);
    // Between completed and canceled, the first member's word.
    expect(oneWindowEach([w({ state: 'completed' }), page({ state: 'canceled' })]).map((x) => x.state)).toEqual(['completed']);
  });
});
