import { okxAnnouncements, okxStatus } from '../../../src/notices/sources/okx';
import { failure, recorded, recordedJson } from './recorded';

const STATUS = '/api/v5/system/status';
const WINDOW = {
  id: 'okx-12e642a494089387',
  title: 'Trading account system upgrade (in batches of accounts)',
  state: 'completed',
  begins: 1672823400000,
  ends: 1672823520000,
  origin: 'planned',
  scope: 'trading',
  coins: [],
  symbols: [],
  url: null,
  source: 'okx-status',
};

/** The recorded window with `fields` changed. */
function withWindow(fields: Record<string, unknown>): string {
  const body = recordedJson('okx', 'status.json') as { data: Record<string, unknown>[] };
  body.data[0] = { ...body.data[0], ...fields };
  return JSON.stringify(body);
}

describe('okx-status: recorded answers', () => {
  it('plans the current list only; asks the likelier finished list first, the other while windows are still missing', () => {
    expect(okxStatus.plan({ open: [] })).toEqual([{ path: STATUS, weight: 1 }]);
    const follow = okxStatus.followUp!;
    const ongoing = { id: 'a', state: 'ongoing' as const, begins: 1_000, ends: 2_000 };
    const ahead = { id: 'b', state: 'scheduled' as const, begins: 5_000, ends: 6_000 };
    expect(follow([ongoing], [], 1_500)).toEqual({ path: `${STATUS}?state=completed`, weight: 1 });
    expect(follow([ongoing], [`${STATUS}?state=completed`], 1_500)).toEqual({ path: `${STATUS}?state=canceled`, weight: 1 });
    expect(follow([ahead], [], 1_500)).toEqual({ path: `${STATUS}?state=canceled`, weight: 1 });
    expect(follow([ahead], [], 5_000)).toEqual({ path: `${STATUS}?state=completed`, weight: 1 });
    expect(follow([ahead], [`${STATUS}?state=canceled`, `${STATUS}?state=completed`], 1_500)).toBeUndefined();
  });

  it('decodes the docs example exactly: strings of ms, "" href as null, serviceType 8 trading, a stable id', () => {
    expect(okxStatus.decode(STATUS, recorded('okx', 'status.json'), 0)).toEqual({
      status: { state: 'normal', message: null, since: null },
      maintenance: [WINDOW],
    });
  });

  it('reads no status from the finished lists', () => {
    expect(okxStatus.decode(`${STATUS}?state=completed`, recorded('okx', 'status.json'), 0)).toEqual({ maintenance: [WINDOW] });
  });

  it('keeps the id of a rescheduled window: begin moves, scheDesc says so', () => {
    const moved = okxStatus.decode(STATUS, withWindow({ state: 'scheduled', begin: '1672909800000', end: '1672909920000', scheDesc: 'Rescheduled to 2023-01-05' }), 0);
    expect(moved.maintenance).toEqual([{ ...WINDOW, state: 'scheduled', begins: 1672909800000, ends: 1672909920000 }]);
  });

  it('is in maintenance while a trading window is ongoing, post_only while it pre-opens, and "" end is unknown', () => {
    expect(okxStatus.decode(STATUS, withWindow({ state: 'ongoing', end: '' }), 0)).toEqual({
      status: { state: 'maintenance', message: WINDOW.title, since: 1672823400000 },
      maintenance: [{ ...WINDOW, state: 'ongoing', ends: null }],
    });
    expect(okxStatus.decode(STATUS, withWindow({ state: 'pre_open' }), 0)).toEqual({
      status: { state: 'post_only', message: WINDOW.title, since: 1672823400000 },
      maintenance: [{ ...WINDOW, state: 'ongoing' }],
    });
  });

  it('ignores the demo environment, reads canceled and cancelled alike, and maps serviceType and maintType codes', () => {
    expect(okxStatus.decode(STATUS, withWindow({ state: 'ongoing', env: '2' }), 0)).toEqual({ status: { state: 'normal', message: null, since: null }, maintenance: [] });
    for (const state of ['canceled', 'cancelled']) {
      expect(okxStatus.decode(STATUS, withWindow({ state }), 0).maintenance?.[0]?.state).toBe('canceled');
    }
    const scopes = Object.fromEntries(['0', '5', '6', '7', '9', '10', '11', '99', '4'].map((t) => [t, okxStatus.decode(STATUS, withWindow({ serviceType: t }), 0).maintenance?.[0]?.scope]));
    expect(scopes).toEqual({ '0': 'api', '5': 'trading', '6': 'other', '7': 'other', '9': 'trading', '10': 'other', '11': 'other', '99': 'unknown', '4': 'unknown' });
    // No code for deposits and withdrawals: a 99 ("others") window is funding when its title says so.
    const titled = ['ETH wallet maintenance', 'Suspension of USDT deposits and withdrawals', 'Trading account system upgrade (in batches of accounts)'].map((title) => okxStatus.decode(STATUS, withWindow({ serviceType: '99', title }), 0).maintenance?.[0]?.scope);
    expect(titled).toEqual(['funding', 'funding', 'unknown']);
    expect(okxStatus.decode(STATUS, withWindow({ serviceType: '5', title: 'Spot and wallet upgrade' }), 0).maintenance?.[0]?.scope).toBe('trading');
    const origins = ['1', '2', '3', ''].map((m) => okxStatus.decode(STATUS, withWindow({ maintType: m }), 0).maintenance?.[0]?.origin);
    expect(origins).toEqual(['planned', 'unplanned', 'incident', 'unknown']);
  });

  it('fails on an error answer, a wrong shape and a body that is not JSON', () => {
    expect(failure(okxStatus, STATUS, '{"code":"50011","msg":"Too Many Requests","data":[]}')).toEqual(['error_answer', 'okx-status']);
    expect(failure(okxStatus, STATUS, '{"code":"0","data":{}}')).toEqual(['schema', 'okx-status']);
    expect(failure(okxStatus, STATUS, withWindow({ begin: 'soon' }))).toEqual(['schema', 'okx-status']);
    expect(failure(okxStatus, STATUS, withWindow({ state: 'paused' }))).toEqual(['schema', 'okx-status']);
    expect(failure(okxStatus, STATUS, '<html>')).toEqual(['schema', 'okx-status']);
  });
});

describe('okx-announcements: recorded answers', () => {
  it('plans three types, in English', () => {
    expect(okxAnnouncements.plan({ open: [] })).toEqual(
      ['announcements-delistings', 'announcements-new-listings', 'announcements-deposit-withdrawal-suspension-resumption'].map((t) => ({
        path: `/api/v5/support/announcements?annType=${t}&page=1`,
        weight: 1,
        headers: { 'Accept-Language': 'en-US' },
      })),
    );
  });

  it('decodes the docs example exactly: the kind of the type asked for, the url as id, pTime', () => {
    const path = '/api/v5/support/announcements?annType=announcements-new-listings&page=1';
    expect(okxAnnouncements.decode(path, recorded('okx', 'announcements.json'), 0)).toEqual({
      announcements: [
        {
          id: 'https://www.okx.com/help/okx-to-list-virtuals-protocol-virtual-for-spot-trading',
          kind: 'listing',
          title: 'OKX to list Virtuals Protocol (VIRTUAL) for spot trading',
          url: 'https://www.okx.com/help/okx-to-list-virtuals-protocol-virtual-for-spot-trading',
          published: 1761620404821,
          source: 'okx-announcements',
        },
        {
          id: 'https://www.okx.com/help/completion-of-x-layer-mainnet-upgrade',
          kind: 'listing',
          title: 'Completion of X Layer Mainnet Upgrade',
          url: 'https://www.okx.com/help/completion-of-x-layer-mainnet-upgrade',
          published: 1761582756071,
          source: 'okx-announcements',
        },
      ],
    });
  });

  it('fails on an error answer', () => {
    expect(failure(okxAnnouncements, '/api/v5/support/announcements?annType=x', '{"code":"50001","msg":"Service temporarily unavailable"}')).toEqual(['error_answer', 'okx-announcements']);
  });
});
