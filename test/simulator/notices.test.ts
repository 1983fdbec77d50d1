/**
 * The reference exchange's notice sources over real HTTP (port 0, manual clock): each dialect's
 * exact body for every state of a maintenance window's life (scheduled -> ongoing -> completed;
 * canceled; rescheduled) and for an announcement, as that exchange documents it.
 */
import type { SimulatorDialect } from '../../src/simulator';
import { get, postJson, startTestSimulator, T0, type TestSimulator } from '../support/simulator';

const MIN = 60_000;
const HOUR = 60 * MIN;

const sims: TestSimulator[] = [];
async function sim(dialect: SimulatorDialect): Promise<TestSimulator> {
  const s = await startTestSimulator({ coins: 40, dialect, weightLimit: { max: 100_000, windowMs: 10_000 } });
  sims.push(s);
  return s;
}
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
});

async function act(s: TestSimulator, action: Record<string, unknown>): Promise<void> {
  const answer = await postJson(s.url, '/-/sim/actions', action);
  expect(answer).toEqual({ status: 200, json: { applied: 1 } });
}

async function body(s: TestSimulator, path: string): Promise<unknown> {
  const answer = await get(s.url, path);
  expect(answer.status).toBe(200);
  return JSON.parse(answer.text) as unknown;
}

const UPGRADE = { action: 'schedule_maintenance', id: 'upgrade-1', title: 'Spot system upgrade', begins_in: '1h', duration: '30m', scope: 'exchange' };

describe('okx: GET /api/v5/system/status and /api/v5/support/announcements', () => {
  let s: TestSimulator;
  beforeAll(async () => {
    s = await sim('okx');
  });
  const status = (query = ''): Promise<unknown> => body(s, `/api/v5/system/status${query}`);
  const row = (fields: Record<string, string>): Record<string, string> => ({
    title: 'Spot system upgrade', state: 'scheduled', begin: String(T0 + HOUR), end: String(T0 + 90 * MIN), preOpenBegin: '', href: '',
    serviceType: '5', system: 'unified', scheDesc: '', maintType: '1', env: '1', ...fields,
  });

  it('answers an empty list while nothing is planned', async () => {
    expect(await status()).toEqual({ code: '0', msg: '', data: [] });
  });

  it('lists a scheduled window, then ongoing once its begin has come, with strings of ms', async () => {
    await act(s, UPGRADE);
    expect(await status()).toEqual({ code: '0', msg: '', data: [row({})] });
    s.clock.set(T0 + HOUR);
    expect(await status()).toEqual({ code: '0', msg: '', data: [row({ state: 'ongoing' })] });
    expect(await status('?state=ongoing')).toEqual({ code: '0', msg: '', data: [row({ state: 'ongoing' })] });
    expect(await status('?state=scheduled')).toEqual({ code: '0', msg: '', data: [] });
  });

  it('drops a completed window from the plain list; ?state=completed has it with its actual end', async () => {
    s.clock.set(T0 + 70 * MIN);
    await act(s, { action: 'complete_maintenance', id: 'upgrade-1' });
    expect(await status()).toEqual({ code: '0', msg: '', data: [] });
    expect(await status('?state=completed')).toEqual({ code: '0', msg: '', data: [row({ state: 'completed', end: String(T0 + 70 * MIN) })] });
  });

  it('lists a canceled window only under ?state=canceled; an unknown end is ""', async () => {
    await act(s, { action: 'schedule_maintenance', id: 'wallet', title: 'Wallet maintenance', begins_at: '2025-01-02T00:00:00Z', scope: 'funding', origin: 'unplanned' });
    const wallet = row({ title: 'Wallet maintenance', begin: String(Date.UTC(2025, 0, 2)), end: '', serviceType: '99', maintType: '2' });
    expect(await status()).toEqual({ code: '0', msg: '', data: [wallet] });
    await act(s, { action: 'cancel_maintenance', id: 'wallet' });
    expect(await status()).toEqual({ code: '0', msg: '', data: [] });
    expect(await status('?state=canceled')).toEqual({ code: '0', msg: '', data: [{ ...wallet, state: 'canceled' }] });
  });

  it('keeps the title of a rescheduled window and says so in scheDesc', async () => {
    await act(s, { action: 'schedule_maintenance', id: 'api', title: 'API upgrade', begins_in: '2h', duration: '1h', scope: 'api' });
    await act(s, { action: 'reschedule_maintenance', id: 'api', begins_in: '3h' });
    const begin = T0 + 70 * MIN + 3 * HOUR;
    expect(await status()).toEqual({
      code: '0', msg: '', data: [row({
        title: 'API upgrade', begin: String(begin), end: String(begin + HOUR), serviceType: '0',
        scheDesc: 'Rescheduled from 2025-01-01T15:10:00.000Z to 2025-01-01T16:10:00.000Z',
      })],
    });
  });

  it('reads a post-only window as pre_open, from preOpenBegin', async () => {
    await act(s, { action: 'schedule_maintenance', id: 'reopen', title: 'Trading resumes post-only', scope: 'trading', status: 'post_only', duration: '10m' });
    const now = String(T0 + 70 * MIN);
    expect(await status('?state=pre_open')).toEqual({
      code: '0', msg: '', data: [row({ title: 'Trading resumes post-only', state: 'pre_open', begin: now, end: String(T0 + 80 * MIN), preOpenBegin: now })],
    });
  });

  it('refuses an unknown state with code 51000', async () => {
    const answer = await get(s.url, '/api/v5/system/status?state=later');
    expect([answer.status, JSON.parse(answer.text)]).toEqual([400, { code: '51000', data: [], msg: 'Parameter state error' }]);
  });

  it('publishes an announcement under its annType, newest first, 20 a page', async () => {
    await act(s, { action: 'announce', kind: 'delisting', coins: ['DOGE'] });
    await act(s, { action: 'announce', kind: 'listing', title: 'OKX to list Demo (DEMO)', url: 'https://www.okx.com/help/okx-to-list-demo' });
    const pTime = String(T0 + 70 * MIN);
    const delisting = { annType: 'announcements-delistings', title: 'Will Delist Dogecoin (DOGE)', url: 'https://www.okx.com/help/will-delist-dogecoin-doge', pTime, businessPTime: pTime };
    const listing = { annType: 'announcements-new-listings', title: 'OKX to list Demo (DEMO)', url: 'https://www.okx.com/help/okx-to-list-demo', pTime, businessPTime: pTime };
    expect(await body(s, '/api/v5/support/announcements?annType=announcements-delistings&page=1')).toEqual({ code: '0', msg: '', data: [{ details: [delisting], totalPage: '1' }] });
    expect(await body(s, '/api/v5/support/announcements')).toEqual({ code: '0', msg: '', data: [{ details: [listing, delisting], totalPage: '1' }] });
    expect(await body(s, '/api/v5/support/announcements?page=2')).toEqual({ code: '0', msg: '', data: [{ details: [], totalPage: '1' }] });
  });
});

describe('bybit: GET /v5/system/status and /v5/announcements/index', () => {
  let s: TestSimulator;
  beforeAll(async () => {
    s = await sim('bybit');
  });
  const envelope = (result: unknown, retMsg = ''): unknown => ({ retCode: 0, retMsg, result, retExtInfo: {}, time: s.clock.now() });
  const row = (fields: Record<string, unknown>): Record<string, unknown> => ({
    id: 'upgrade-1', title: 'Spot system upgrade', state: 'scheduled', begin: String(T0 + HOUR), end: String(T0 + 90 * MIN), href: '',
    serviceTypes: [1, 2, 3, 4, 5], product: [1, 2, 3, 4], uidSuffix: [], maintainType: 1, env: 1, ...fields,
  });

  it('lists every window with its id through its life: scheduled, ongoing, completed', async () => {
    expect(await body(s, '/v5/system/status')).toEqual(envelope({ list: [] }));
    await act(s, UPGRADE);
    expect(await body(s, '/v5/system/status')).toEqual(envelope({ list: [row({})] }));
    s.clock.set(T0 + HOUR + 1);
    expect(await body(s, '/v5/system/status?state=ongoing')).toEqual(envelope({ list: [row({ state: 'ongoing' })] }));
    s.clock.set(T0 + 90 * MIN);
    expect(await body(s, '/v5/system/status')).toEqual(envelope({ list: [row({ state: 'completed' })] }));
  });

  it('cancels, reschedules (same id), and filters by id', async () => {
    await act(s, { action: 'schedule_maintenance', id: 'w2', title: 'Spot trading upgrade', begins_in: '1h', scope: 'trading', origin: 'incident', url: 'https://announcements.bybit.com/en/article/x' });
    await act(s, { action: 'schedule_maintenance', id: 'w3', title: 'Market data upgrade', begins_in: '1h', duration: '1h', scope: 'api' });
    await act(s, { action: 'cancel_maintenance', id: 'w2' });
    await act(s, { action: 'reschedule_maintenance', id: 'w3', begins_at: '2025-01-02T00:00:00Z', duration: '2h' });
    const begin = T0 + 90 * MIN + HOUR;
    expect(await body(s, '/v5/system/status?id=w2')).toEqual(envelope({ list: [row({
      id: 'w2', title: 'Spot trading upgrade', state: 'canceled', begin: String(begin), end: '', href: 'https://announcements.bybit.com/en/article/x',
      serviceTypes: [1, 2, 3], product: [2], maintainType: 3,
    })] }));
    expect(await body(s, '/v5/system/status?id=w3')).toEqual(envelope({ list: [row({
      id: 'w3', title: 'Market data upgrade', begin: String(Date.UTC(2025, 0, 2)), end: String(Date.UTC(2025, 0, 2) + 2 * HOUR), serviceTypes: [4, 5], product: [2],
    })] }));
  });

  it('publishes an announcement with numbers of ms; a missing locale is retCode 10001', async () => {
    await act(s, { action: 'announce', id: 7, kind: 'maintenance', coins: ['USDT', 'TRX'] });
    const at = T0 + 90 * MIN;
    const title = 'Suspension of Deposits and Withdrawals of TetherUS (USDT), TRON (TRX) for Wallet Maintenance';
    expect(await body(s, '/v5/announcements/index?locale=en-US&type=maintenance_updates&page=1&limit=20')).toEqual(envelope({
      total: 1,
      list: [{
        title, description: title, type: { title: 'Maintenance Updates', key: 'maintenance_updates' }, tags: ['Maintenance'],
        url: 'https://announcements.bybit.com/en/article/suspension-of-deposits-and-withdrawals-of-tetherus-usdt-tron-trx-for-wallet-maintenance-blt0000000000000007/',
        dateTimestamp: at, startDateTimestamp: at, endDateTimestamp: at, publishTime: at,
      }],
    }, 'OK'));
    expect(await body(s, '/v5/announcements/index?locale=en-US&type=delistings')).toEqual(envelope({ total: 0, list: [] }, 'OK'));
    expect(await body(s, '/v5/announcements/index')).toEqual({ retCode: 10001, retMsg: 'params error: locale is required', result: {}, retExtInfo: {}, time: at });
  });
});

describe('kucoin: GET /api/v1/status and /api/v3/announcements', () => {
  let s: TestSimulator;
  beforeAll(async () => {
    s = await sim('kucoin');
  });
  const status = (): Promise<unknown> => body(s, '/api/v1/status');

  it('is open, close while an exchange window is ongoing, open again once it completes', async () => {
    expect(await status()).toEqual({ code: '200000', data: { status: 'open', msg: '' } });
    await act(s, UPGRADE);
    expect(await status()).toEqual({ code: '200000', data: { status: 'open', msg: '' } });
    await act(s, { action: 'start_maintenance', id: 'upgrade-1' });
    expect(await status()).toEqual({ code: '200000', data: { status: 'close', msg: 'Spot system upgrade' } });
    await act(s, { action: 'complete_maintenance', id: 'upgrade-1' });
    expect(await status()).toEqual({ code: '200000', data: { status: 'open', msg: '' } });
  });

  it('is cancelonly during a cancel-only trading window; a funding window leaves it open', async () => {
    await act(s, { action: 'schedule_maintenance', id: 'wallet', title: 'Wallet upgrade', scope: 'funding' });
    expect(await status()).toEqual({ code: '200000', data: { status: 'open', msg: '' } });
    await act(s, { action: 'schedule_maintenance', id: 'engine', title: 'Matching engine upgrade', scope: 'trading', status: 'cancel_only', duration: '5m' });
    expect(await status()).toEqual({ code: '200000', data: { status: 'cancelonly', msg: 'Matching engine upgrade' } });
    s.clock.set(T0 + 5 * MIN);
    expect(await status()).toEqual({ code: '200000', data: { status: 'open', msg: '' } });
  });

  it('publishes an announcement: annId and cTime numbers, annType a list', async () => {
    await act(s, { action: 'announce', kind: 'delisting', title: 'KuCoin Will Delist ALPHA, BSW', coins: ['ALPHA', 'BSW'], url: 'https://www.kucoin.com/announcement/delist-alpha' });
    const item = {
      annId: 1, annTitle: 'KuCoin Will Delist ALPHA, BSW', annType: ['latest-announcements', 'delistings'], annDesc: 'KuCoin Will Delist ALPHA, BSW',
      cTime: T0 + 5 * MIN, language: 'en_US', annUrl: 'https://www.kucoin.com/announcement/delist-alpha',
    };
    expect(await body(s, '/api/v3/announcements?annType=delistings&lang=en_US&currentPage=1&pageSize=20')).toEqual({
      code: '200000', data: { totalNum: 1, totalPage: 1, currentPage: 1, pageSize: 20, items: [item] },
    });
    expect(await body(s, '/api/v3/announcements?annType=new-listings&lang=en_US&currentPage=1&pageSize=20')).toEqual({
      code: '200000', data: { totalNum: 0, totalPage: 0, currentPage: 1, pageSize: 20, items: [] },
    });
  });
});

describe('binance: GET /sapi/v1/system/status and the CMS article list', () => {
  it('reads 0 normal, 1 system_maintenance while a window is ongoing; catalogs 48, 49, 161, 157', async () => {
    const s = await sim('binance');
    expect(await body(s, '/sapi/v1/system/status')).toEqual({ status: 0, msg: 'normal' });
    await act(s, { ...UPGRADE, begins_in: 0 });
    expect(await body(s, '/sapi/v1/system/status')).toEqual({ status: 1, msg: 'system_maintenance' });
    await act(s, { action: 'announce', kind: 'delisting', title: 'Binance Will Delist BSW on 2025-01-10' });
    const catalog = (catalogId: number, catalogName: string, articles: unknown[]): unknown => ({
      catalogId, parentCatalogId: null, icon: '', catalogName, description: null, catalogType: 1, total: articles.length, articles, catalogs: [],
    });
    expect(await body(s, '/bapi/composite/v1/public/cms/article/list/query?type=1&pageNo=1&pageSize=20')).toEqual({
      code: '000000', message: null, messageDetail: null, success: true,
      data: {
        catalogs: [
          catalog(48, 'New Cryptocurrency Listing', []),
          catalog(49, 'Latest Binance News', []),
          catalog(161, 'Delisting', [{ id: 1, code: '00000000000000000000000000000001', title: 'Binance Will Delist BSW on 2025-01-10', type: 1, releaseDate: T0 }]),
          catalog(157, 'Wallet Maintenance Updates', []),
        ],
      },
    });
  });
});

describe('htx: GET /v2/market-status', () => {
  it('is 1, then 2 with the halt of an ongoing window, 3 when cancel-only, naming the symbols of its coins', async () => {
    const s = await sim('htx');
    expect(await body(s, '/v2/market-status')).toEqual({ code: 200, message: 'success', data: { marketStatus: 1 } });
    await act(s, { ...UPGRADE, begins_in: 0 });
    expect(await body(s, '/v2/market-status')).toEqual({
      code: 200, message: 'success', data: { marketStatus: 2, haltStartTime: T0, haltEndTime: T0 + 30 * MIN, haltReason: 3, affectedSymbols: 'all' },
    });
    await act(s, { action: 'complete_maintenance', id: 'upgrade-1' });
    await act(s, { action: 'schedule_maintenance', id: 'doge', title: 'DOGE trading halt', scope: 'trading', status: 'cancel_only', origin: 'unplanned', coins: ['DOGE'] });
    const answer = await body(s, '/v2/market-status') as { data: { affectedSymbols: string } };
    expect(answer).toEqual({ code: 200, message: 'success', data: { marketStatus: 3, haltStartTime: T0, haltReason: 2, affectedSymbols: answer.data.affectedSymbols } });
    expect(answer.data.affectedSymbols.split(',')).toContain('dogeusdt');
    expect(answer.data.affectedSymbols.split(',').every((x) => x.startsWith('doge'))).toBe(true);
  });
});

describe('bitget: GET /api/v2/public/annoucements', () => {
  it('publishes every value as a string, filtered by annType; language is required', async () => {
    const s = await sim('bitget');
    await act(s, { action: 'announce', kind: 'listing', coins: ['SOL'] });
    s.clock.set(T0 + MIN);
    await act(s, { action: 'announce', kind: 'delisting', coins: ['DOGE'] });
    const listing = {
      annId: '1', annTitle: 'Will List Solana (SOL)', annDesc: 'Will List Solana (SOL)', cTime: String(T0), language: 'en_US',
      annUrl: 'https://www.bitget.com/support/articles/1', annType: 'coin_listings', annSubType: 'spot',
    };
    const delisting = { ...listing, annId: '2', annTitle: 'Will Delist Dogecoin (DOGE)', annDesc: 'Will Delist Dogecoin (DOGE)', cTime: String(T0 + MIN), annUrl: 'https://www.bitget.com/support/articles/2', annType: 'symbol_delisting' };
    expect(await body(s, '/api/v2/public/annoucements?language=en_US')).toEqual({ code: '00000', msg: 'success', requestTime: T0 + MIN, data: [delisting, listing] });
    expect(await body(s, '/api/v2/public/annoucements?language=en_US&annType=coin_listings')).toEqual({ code: '00000', msg: 'success', requestTime: T0 + MIN, data: [listing] });
    const missing = await get(s.url, '/api/v2/public/annoucements');
    expect([missing.status, JSON.parse(missing.text)]).toEqual([400, { code: '400172', msg: 'language can not be empty', requestTime: T0 + MIN, data: null }]);
  });
});
