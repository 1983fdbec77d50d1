/**
 * The dialects over real HTTP (port 0): signed endpoints accept a request signed as each exchange
 * documents it and refuse a wrong secret, a wrong key or a stale timestamp with that exchange's
 * own status and body; an exhausted budget gets the exchange's rate-limit answer.
 */
import { createHmac } from 'node:crypto';
import type { SimulatorOptions } from '../../../src/simulator';
import { rendererOf } from '../../../src/simulator/dialects/registry';
import type { DialectRenderer } from '../../../src/simulator/dialects/types';
import { get, startTestSimulator, T0, type TestSimulator } from '../../support/simulator';

const KEY = 'test-api-key';
const SECRET = 'test-api-secret';
const PASSPHRASE = 'test-passphrase';
const credentials = { apiKey: KEY, apiSecret: SECRET, passphrase: PASSPHRASE };

const hex = (secret: string, payload: string): string => createHmac('sha256', secret).update(payload).digest('hex');
const b64 = (secret: string, payload: string): string => createHmac('sha256', secret).update(payload).digest('base64');

const sims: TestSimulator[] = [];
async function sim(options: SimulatorOptions): Promise<TestSimulator> {
  const s = await startTestSimulator({ coins: 40, credentials, ...options });
  sims.push(s);
  return s;
}
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
});

const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;

/** Binance/MEXC SIGNED query: timestamp, recvWindow, then signature over the query before it. */
function signedQuery(secret: string, timestamp = T0): string {
  const query = `timestamp=${timestamp}&recvWindow=5000`;
  return `${query}&signature=${hex(secret, query)}`;
}

describe('binance', () => {
  let s: TestSimulator;
  beforeAll(async () => {
    s = await sim({ dialect: 'binance', weightLimit: { max: 1000, windowMs: 10_000 } });
  });
  const getall = (query: string, key = KEY) => get(s.url, `/sapi/v1/capital/config/getall?${query}`, { headers: { 'X-MBX-APIKEY': key } });

  it('serves the coins to a request signed with the configured key', async () => {
    const a = await getall(signedQuery(SECRET));
    expect(a.status).toBe(200);
    const coins = JSON.parse(a.text) as { coin: string; networkList: unknown[] }[];
    expect(coins.length).toBe(40);
    expect(a.headers.get('x-mbx-used-weight-1m')).toMatch(/^\d+$/);
  });

  it('refuses a wrong secret (-1022), a wrong key (-2015), no key (-2014) and a stale timestamp (-1021)', async () => {
    expect(await getall(signedQuery('wrong-secret'))).toMatchObject({ status: 400 });
    expect(json((await getall(signedQuery('wrong-secret'))).text)).toEqual({ code: -1022, msg: 'Signature for this request is not valid.' });
    const wrongKey = await getall(signedQuery(SECRET), 'other-key');
    expect([wrongKey.status, json(wrongKey.text).code]).toEqual([401, -2015]);
    const noKey = await get(s.url, `/sapi/v1/capital/config/getall?${signedQuery(SECRET)}`);
    expect([noKey.status, json(noKey.text).code]).toEqual([401, -2014]);
    const stale = await getall(signedQuery(SECRET, T0 - 60_000));
    expect([stale.status, json(stale.text)]).toEqual([400, { code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' }]);
  });

  it('serves the public tickers as Binance does (object for one symbol, -1121 for an unknown one)', async () => {
    const one = await get(s.url, '/api/v3/ticker/24hr?symbol=BTCUSDT');
    expect(one.status).toBe(200);
    expect(json(one.text)).toMatchObject({ symbol: 'BTCUSDT', firstId: 1 });
    const unknown = await get(s.url, '/api/v3/ticker/24hr?symbol=NOPEUSDT');
    expect([unknown.status, json(unknown.text).code]).toEqual([400, -1121]);
  });
});

describe('mexc', () => {
  it('refuses a wrong secret with 400 700002 and serves a signed request', async () => {
    const s = await sim({ dialect: 'mexc' });
    const path = '/api/v3/capital/config/getall';
    const ok = await get(s.url, `${path}?${signedQuery(SECRET)}`, { headers: { 'X-MEXC-APIKEY': KEY } });
    expect(ok.status).toBe(200);
    const bad = await get(s.url, `${path}?${signedQuery('wrong')}`, { headers: { 'X-MEXC-APIKEY': KEY } });
    expect([bad.status, json(bad.text)]).toEqual([400, { code: 700002, msg: 'Signature for this request is not valid.' }]);
  });
});

describe('okx', () => {
  const path = '/api/v5/asset/currencies';
  const headers = (secret: string, timestamp = new Date(T0).toISOString(), passphrase = PASSPHRASE) => ({
    'OK-ACCESS-KEY': KEY,
    'OK-ACCESS-PASSPHRASE': passphrase,
    'OK-ACCESS-TIMESTAMP': timestamp,
    'OK-ACCESS-SIGN': b64(secret, `${timestamp}GET${path}`),
  });

  it('serves a request signed with key, secret and passphrase, and refuses each wrong part with 401', async () => {
    const s = await sim({ dialect: 'okx' });
    const ok = await get(s.url, path, { headers: headers(SECRET) });
    expect([ok.status, json(ok.text).code]).toEqual([200, '0']);
    const bad = await get(s.url, path, { headers: headers('wrong') });
    expect([bad.status, json(bad.text)]).toEqual([401, { msg: 'Invalid Sign.', code: '50113' }]);
    const pass = await get(s.url, path, { headers: headers(SECRET, undefined, 'wrong') });
    expect([pass.status, json(pass.text).code]).toEqual([401, '50105']);
    const stale = await get(s.url, path, { headers: headers(SECRET, new Date(T0 - 60_000).toISOString()) });
    expect([stale.status, json(stale.text).code]).toEqual([401, '50102']);
    const noType = await get(s.url, '/api/v5/market/tickers');
    expect([noType.status, json(noType.text).code]).toEqual([400, '50014']);
  });
});

describe('bybit', () => {
  const path = '/v5/asset/coin/query-info';
  const headers = (secret: string, timestamp = String(T0)) => ({
    'X-BAPI-API-KEY': KEY,
    'X-BAPI-TIMESTAMP': timestamp,
    'X-BAPI-RECV-WINDOW': '5000',
    'X-BAPI-SIGN': hex(secret, `${timestamp}${KEY}5000`),
  });

  it('serves a signed request; a wrong secret is 401 10004, a stale timestamp 200 10002', async () => {
    const s = await sim({ dialect: 'bybit' });
    const ok = await get(s.url, path, { headers: headers(SECRET) });
    expect([ok.status, json(ok.text).retCode]).toEqual([200, 0]);
    const bad = await get(s.url, path, { headers: headers('wrong') });
    expect([bad.status, json(bad.text).retCode]).toEqual([401, 10004]);
    expect(String(json(bad.text).retMsg)).toMatch(/^error sign! origin_string\[/);
    const stale = await get(s.url, path, { headers: headers(SECRET, String(T0 - 60_000)) });
    expect([stale.status, json(stale.text).retCode]).toEqual([200, 10002]);
    const noCategory = await get(s.url, '/v5/market/tickers');
    expect([noCategory.status, json(noCategory.text).retCode]).toEqual([200, 10001]);
  });
});

describe('signed dialects without configured credentials', () => {
  it('refuse every key', async () => {
    const s = await startTestSimulator({ coins: 10, dialect: 'binance' });
    sims.push(s);
    const a = await get(s.url, `/sapi/v1/capital/config/getall?${signedQuery(SECRET)}`, { headers: { 'X-MBX-APIKEY': KEY } });
    expect([a.status, json(a.text).code]).toEqual([401, -2015]);
  });
});

describe('rate-limit answers', () => {
  /** Asks until refused (Bybit refuses with HTTP 200 and retCode 10006); returns the refusal. */
  async function exhaust(s: TestSimulator, path: string, init: RequestInit = {}): Promise<Awaited<ReturnType<typeof get>>> {
    for (let i = 0; i < 50; i++) {
      const a = await get(s.url, path, init);
      if (a.status !== 200 || a.text.includes('"retCode":10006')) return a;
    }
    throw new Error('never limited');
  }

  it('binance: 429 -1003 with Retry-After, then 418 for a client that keeps asking', async () => {
    const s = await sim({ dialect: 'binance', weightLimit: { max: 100, windowMs: 10_000 }, banAfter: 2 });
    const limited = await exhaust(s, '/api/v3/ticker/24hr');
    expect(limited.status).toBe(429);
    expect(json(limited.text).code).toBe(-1003);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.headers.get('x-mbx-used-weight-1m')).toBe('80');
    await get(s.url, '/api/v3/ticker/24hr');
    const banned = await get(s.url, '/api/v3/ticker/24hr');
    expect([banned.status, json(banned.text).code]).toEqual([418, -1003]);
  });

  it.each([
    ['okx', '/api/v5/market/tickers?instType=SPOT', 429, { msg: 'Too Many Requests', code: '50011' }],
    ['gate', '/api/v4/spot/tickers', 429, { label: 'TOO_MANY_REQUESTS', message: 'Request Rate limit Exceeded' }],
    ['kucoin', '/api/v1/market/allTickers', 429, { code: '429000', msg: 'Too Many Requests' }],
    ['bitget', '/api/v2/spot/market/tickers', 429, { code: '429', msg: 'Too Many Requests' }],
    ['htx', '/market/tickers', 429, { status: 'error', 'err-code': 'api-request-too-frequent' }],
    ['bybit', '/v5/market/tickers?category=spot', 200, { retCode: 10006 }],
  ] as const)('%s answers an exhausted budget with its own status and body', async (dialect, path, status, expected) => {
    const s = await sim({ dialect, weightLimit: { max: 15, windowMs: 10_000 }, banAfter: 100 });
    const limited = await exhaust(s, path);
    expect(limited.status).toBe(status);
    expect(json(limited.text)).toMatchObject(expected);
  });
});

describe('faults in a dialect', () => {
  it('rate_limit and ban answer in the dialect’s shape; empty is an empty answer of the dialect', async () => {
    const s = await sim({ dialect: 'okx' });
    s.control.addFault({ kind: 'rate_limit', endpoint: 'tickers', count: 1, retry_after: 7 });
    const limited = await get(s.url, '/api/v5/market/tickers?instType=SPOT');
    expect([limited.status, json(limited.text), limited.headers.get('retry-after')]).toEqual([429, { msg: 'Too Many Requests', code: '50011' }, '7']);
    s.control.addFault({ kind: 'empty', endpoint: 'tickers', count: 1 });
    const empty = await get(s.url, '/api/v5/market/tickers?instType=SPOT');
    expect([empty.status, json(empty.text)]).toEqual([200, { code: '0', msg: '', data: [] }]);
    s.control.addFault({ kind: 'http_500', endpoint: 'tickers', count: 1 });
    expect((await get(s.url, '/api/v5/market/tickers?instType=SPOT')).status).toBe(500);
    expect((await get(s.url, '/api/v5/market/tickers?instType=SPOT')).status).toBe(200);
  });
});

describe('the same market through a dialect', () => {
  it('a flip, a delisting and a price move applied by the admin API show in the dialect’s own terms', async () => {
    const s = await sim({ dialect: 'htx' });
    type HtxCoin = { currency: string; chains: { chain: string; withdrawStatus: string }[] };
    const coins = async (): Promise<HtxCoin[]> => (json((await get(s.url, '/v2/reference/currencies')).text).data as HtxCoin[]);
    const usdtTron = (list: HtxCoin[]) => list.find((c) => c.currency === 'usdt')?.chains.find((n) => n.chain === 'trc20usdt');
    expect(usdtTron(await coins())?.withdrawStatus).toBe('allowed');
    s.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false } });
    expect(usdtTron(await coins())?.withdrawStatus).toBe('prohibited');
    s.control.apply({ action: 'delist_coin', coin: 'USDT' });
    expect((await coins()).some((c) => c.currency === 'usdt')).toBe(false);

    type HtxTicker = { symbol: string; close: number };
    const close = async (): Promise<number | undefined> =>
      (json((await get(s.url, '/market/tickers')).text).data as HtxTicker[]).find((t) => t.symbol === 'ethbtc')?.close;
    const before = await close();
    s.control.apply({ action: 'move_price', symbol: 'ETHBTC', percent: 100, over: '1s' });
    s.clock.advance(60_000);
    expect(before).toBeDefined();
    expect(await close()).toBeGreaterThan((before as number) * 1.5);
  });
});

describe('a known path asked with another method than GET', () => {
  it.each(['binance', 'okx', 'gate'] as const)('%s answers 405 with Allow: GET, HEAD', async (dialect) => {
    const s = await sim({ dialect });
    const { paths } = rendererOf(dialect) as DialectRenderer;
    for (const path of [paths.coins, paths.tickers]) {
      const res = await fetch(`${s.url}${path}`, { method: 'POST' });
      expect([res.status, res.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    }
  });
});

describe('the admin API of an exchange speaking another dialect', () => {
  const post = async (url: string, body: unknown): Promise<[number, unknown]> => {
    const res = await fetch(`${url}/-/sim/actions`, { method: 'POST', body: JSON.stringify(body) });
    return [res.status, await res.json()];
  };

  it.each([
    ['binance', 'TRX'],
    ['okx', 'USDT-TRC20'],
    ['htx', 'trc20usdt'],
    ['kucoin', 'trx'],
    ['mexc', 'TRX'],
    ['mexc', 'Tron(TRC20)'],
  ] as const)('%s takes the network id it answers with (%s), and the model\'s own', async (dialect, id) => {
    const s = await sim({ dialect });
    expect(await post(s.url, { action: 'set_network', coin: 'USDT', network: id, set: { withdrawEnable: false } })).toEqual([200, { applied: 1 }]);
    expect(await post(s.url, { action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: true } })).toEqual([200, { applied: 1 }]);
  });

  it('names the networks in the dialect\'s ids when one is unknown', async () => {
    const s = await sim({ dialect: 'binance', coins: 40 });
    const [status, body] = await post(s.url, { action: 'set_network', coin: 'USDT', network: 'TRC20', set: { withdrawEnable: false } });
    expect(status).toBe(400);
    expect((body as { problems: string[] }).problems[0]).toMatch(/^coin USDT has no network "TRC20" \(it has: .*\bTRX\b.*\)$/);
    expect((body as { problems: string[] }).problems[0]).not.toContain('Tron(TRC20)');
  });

  it('shows the change under the dialect\'s id: binance\'s TRX closes', async () => {
    const s = await sim({ dialect: 'binance' });
    await post(s.url, { action: 'set_network', coin: 'USDT', network: 'TRX', set: { withdrawEnable: false, withdrawDesc: 'maintenance' } });
    const coins = await get(s.url, `/sapi/v1/capital/config/getall?${signedQuery(SECRET)}`, { headers: { 'X-MBX-APIKEY': KEY } });
    const usdt = (JSON.parse(coins.text) as { coin: string; networkList: { network: string; withdrawEnable: boolean; withdrawDesc: string }[] }[]).find((c) => c.coin === 'USDT');
    expect(usdt?.networkList.find((n) => n.network === 'TRX')).toMatchObject({ withdrawEnable: false, withdrawDesc: 'maintenance' });
  });
});
