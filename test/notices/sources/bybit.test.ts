import { bybitAnnouncements, bybitStatus } from '../../../src/notices/sources/bybit';
import { failure, recorded, recordedJson } from './recorded';

const WINDOW = {
  id: '4d95b2a0-587f-11f0-bcc9-56f28c94d6ea', title: 't06', state: 'completed', begins: 1751596902000, ends: 1751597011000,
  origin: 'planned', scope: 'trading', coins: [], symbols: [], url: null, source: 'bybit-status',
};

function withWindow(fields: Record<string, unknown>): string {
  const body = recordedJson('bybit', 'system-status.json') as { result: { list: Record<string, unknown>[] } };
  body.result.list[0] = { ...body.result.list[0], ...fields };
  return JSON.stringify(body);
}

describe('bybit-status: recorded answers', () => {
  it('decodes the docs example exactly: serviceTypes 2 with product 2 is trading, maintainType as a number', () => {
    expect(bybitStatus.plan({ open: [] })).toEqual([{ path: '/v5/system/status', weight: 1 }]);
    expect(bybitStatus.decode('/v5/system/status', recorded('bybit', 'system-status.json'), 0)).toEqual({
      status: { state: 'normal', message: null, since: null },
      maintenance: [WINDOW],
    });
  });

  it('maps product and serviceTypes, codes as strings, "" end, the demo environment and an ongoing window', () => {
    const scope = (fields: Record<string, unknown>) => bybitStatus.decode('', withWindow(fields), 0).maintenance?.[0]?.scope;
    expect([scope({ product: [1] }), scope({ product: [] }), scope({ serviceTypes: [4] }), scope({ serviceTypes: [] })]).toEqual(['other', 'trading', 'api', 'unknown']);
    // No code for deposits and withdrawals: a window naming no service is funding when its title says so.
    expect([scope({ serviceTypes: [], title: 'USDT withdrawal maintenance' }), scope({ serviceTypes: [], title: 'Scheduled upgrade' })]).toEqual(['funding', 'unknown']);
    expect(bybitStatus.decode('', withWindow({ maintainType: '3', env: '1', state: 'ongoing', end: '' }), 0)).toEqual({
      status: { state: 'maintenance', message: 't06', since: 1751596902000 },
      maintenance: [{ ...WINDOW, origin: 'incident', state: 'ongoing', ends: null }],
    });
    expect(bybitStatus.decode('', withWindow({ env: 2, state: 'ongoing' }), 0).maintenance).toEqual([]);
    expect(bybitStatus.decode('', withWindow({ state: 'cancelled' }), 0).maintenance?.[0]?.state).toBe('canceled');
  });

  it('fails on an error answer (retCode not 0) and a wrong shape', () => {
    expect(failure(bybitStatus, '', '{"retCode":10006,"retMsg":"Too many visits!","result":{}}')).toEqual(['error_answer', 'bybit-status']);
    expect(failure(bybitStatus, '', '{"retCode":0,"result":{"list":{}}}')).toEqual(['schema', 'bybit-status']);
  });
});

describe('bybit-announcements: recorded answers', () => {
  it('plans three types and decodes the docs example exactly (dateTimestamp when publishTime is absent)', () => {
    expect(bybitAnnouncements.plan({ open: [] }).map((r) => r.path)).toEqual([
      '/v5/announcements/index?locale=en-US&type=delistings&page=1&limit=20',
      '/v5/announcements/index?locale=en-US&type=new_crypto&page=1&limit=20',
      '/v5/announcements/index?locale=en-US&type=maintenance_updates&page=1&limit=20',
    ]);
    const url = 'https://announcements.bybit.com/en-US/article/new-listing-arbitrum-arb-deposit-trade-and-stake-arb-to-share-a-400-000-usdt-prize-pool--bltf662314c211a8616/';
    const ann = { id: url, kind: 'listing', title: 'New Listing: Arbitrum (ARB) — Deposit, Trade and Stake ARB to Share a 400,000 USDT Prize Pool!', url, published: 1679045608000, source: 'bybit-announcements' };
    expect(bybitAnnouncements.decode('/v5/announcements/index?locale=en-US&type=new_crypto&page=1&limit=20', recorded('bybit', 'announcements.json'), 0)).toEqual({ announcements: [ann] });
    const body = recordedJson('bybit', 'announcements.json') as { result: { list: Record<string, unknown>[] } };
    body.result.list[0] = { ...body.result.list[0], publishTime: 1679045700000 };
    expect(bybitAnnouncements.decode('/v5/announcements/index?type=delistings', JSON.stringify(body), 0)).toEqual({ announcements: [{ ...ann, kind: 'delisting', published: 1679045700000 }] });
  });
});
