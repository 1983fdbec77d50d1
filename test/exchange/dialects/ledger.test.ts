import { ExchangeClient, type ClientOptions } from '../../../src/exchange/client';
import { dialects } from '../../../src/exchange/dialects/registry';
import { ExchangeError } from '../../../src/exchange/errors';
import { diff } from '../../../src/snapshot/diff';
import { applyCoins } from '../../../src/snapshot/merge';
import { emptySnapshot } from '../../../src/snapshot/model';
import { ledger, LEDGER_PATHS } from './ledger';
import { LedgerExchange } from './ledger/exchange';

/**
 * A dialect is one folder and one line: `ledger` (test/exchange/dialects/ledger/), registered
 * below as a real one is, is read by the real client from a real loopback server, signed
 * requests, a re-sync of the exchange's clock, its error answers and its envelopes included.
 */

const registry = dialects.with(ledger);

const KEYS = { api_key: 'k-123', api_secret: 's-456' };
/** The exchange's clock runs an hour ahead of ours: the first signed request is refused. */
const AHEAD_MS = 3_600_000;

let exchange: LedgerExchange;
beforeEach(async () => {
  exchange = await new LedgerExchange(KEYS, AHEAD_MS).start();
  exchange.assets = [
    { asset: 'usdt', title: 'Tether', chains: [
      { chain: 'TRC20', canDeposit: 'yes', canWithdraw: 'no', fee: '1.50', minimum: '10', confirms: '20', memo: false, contract: 'TR7NHq' },
      { chain: 'ERC20', canDeposit: 'yes', canWithdraw: 'yes', fee: '0.00010', confirms: 12 },
    ] },
  ];
  exchange.tickers = ['{"pair":"btc-usdt","last":67400.10,"open":"66802.1","volume":1.0712E-5}', '{"pair":"eth-btc","last":0.05}'];
});
afterEach(() => exchange.stop());

function client(over: Partial<ClientOptions> = {}): ExchangeClient {
  return new ExchangeClient({
    exchange: 'ledger-test',
    dialect: registry.named('ledger'),
    credentials: KEYS,
    baseUrl: exchange.url,
    timeoutMs: 2_000,
    maxBodyBytes: 1 << 20,
    retries: { max: 0, baseDelayMs: 10, maxDelayMs: 50 },
    weightLimit: { max: 1_000, windowMs: 10_000 },
    ...over,
  });
}

const TRC20 = {
  network: 'TRC20', coin: 'USDT', name: null, isDefault: false, depositEnable: true, withdrawEnable: false, withdrawFee: '1.50',
  withdrawMin: '10', withdrawInternalMin: null, withdrawIntegerMultiple: null, minConfirm: 20, withdrawTag: false, depositDust: null,
  contractAddress: 'TR7NHq', contractAddressUrl: null, depositDesc: null, withdrawDesc: null,
};
const ERC20 = { ...TRC20, network: 'ERC20', withdrawEnable: true, withdrawFee: '0.00010', withdrawMin: null, minConfirm: 12, withdrawTag: null, contractAddress: null };

describe('a dialect registered with one line', () => {
  it('is known by name beside the dialects of the registry, which does not know it', () => {
    expect(registry.names()).toEqual([...dialects.names(), 'ledger']);
    expect(registry.named('ledger')).toBe(ledger);
    expect(() => dialects.named('ledger')).toThrow(`unknown dialect "ledger" (known: ${dialects.names().join(', ')})`);
    expect(() => dialects.with(registry.named('spot-v3'))).toThrow(`two dialects share a name: ${[...dialects.names(), 'spot-v3'].join(', ')}`);
  });

  it('reads the coins through the real client: signed, the clock re-synced once, decoded into the model with exact decimals', async () => {
    const c = client();
    const coins = await c.fetchCoins();
    expect(coins).toEqual({
      records: [{ coin: 'USDT', name: 'Tether', depositAllEnable: true, withdrawAllEnable: false, networkList: [TRC20, ERC20] }],
      issues: [],
      bytes: expect.any(Number),
      requests: 1,
      texts: expect.anything(),
    });
    // Refused (our clock is an hour behind), the exchange's time read, then signed again.
    expect(exchange.requests).toEqual([LEDGER_PATHS.assets, LEDGER_PATHS.time, LEDGER_PATHS.assets]);
    exchange.requests.length = 0;
    await c.fetchCoins();
    expect(exchange.requests).toEqual([LEDGER_PATHS.assets]);
    await c.close();
  });

  it('reads the tickers, and picks a watch list out of the list of every symbol (it has no request for some)', async () => {
    const c = client();
    const all = await c.fetchTickers([]);
    expect(all.records).toEqual([
      { symbol: 'BTCUSDT', priceChange: null, priceChangePercent: null, lastPrice: '67400.10', bidPrice: null, bidQty: null, askPrice: null, askQty: null,
        openPrice: '66802.1', highPrice: null, lowPrice: null, volume: '1.0712E-5', quoteVolume: null, openTime: 1_699_913_600_000, closeTime: 1_700_000_000_000, count: null },
      { symbol: 'ETHBTC', priceChange: null, priceChangePercent: null, lastPrice: '0.05', bidPrice: null, bidQty: null, askPrice: null, askQty: null,
        openPrice: null, highPrice: null, lowPrice: null, volume: null, quoteVolume: null, openTime: 1_699_913_600_000, closeTime: 1_700_000_000_000, count: null },
    ]);
    exchange.requests.length = 0;
    const watched = await c.fetchTickers(['ETHBTC', 'SOLUSDT']);
    expect([watched.records.map((t) => t.symbol), watched.refused]).toEqual([['ETHBTC'], ['SOLUSDT']]);
    expect(exchange.requests).toEqual([LEDGER_PATHS.tickers]);
    await c.close();
  });

  it('turns its answers into a snapshot and its changes like any exchange', async () => {
    const c = client();
    const before = applyCoins(emptySnapshot('ledger-test'), await c.fetchCoins(), 1);
    (exchange.assets[0] as { chains: { canWithdraw: string }[] }).chains[0]!.canWithdraw = 'yes';
    const after = applyCoins(before, await c.fetchCoins(undefined, before.coins), 2);
    await c.close();
    expect(diff(before, after)).toEqual([
      { kind: 'withdraw_all_enabled', exchange: 'ledger-test', coin: 'USDT', before: false, after: true, at: 2 },
      { kind: 'withdraw_enabled', exchange: 'ledger-test', coin: 'USDT', network: 'TRC20', before: false, after: true, at: 2 },
    ]);
  });

  it.each([
    ['a refused signature', 401, '{"ok":false,"error":{"code":"E_SIGN","text":"bad signature"}}', {}, 'http_4xx', 'coins: HTTP 401 code E_SIGN: bad signature'],
    ['a rate limit', 429, '{"ok":false,"error":{"code":"E_SLOW","text":"slow down"}}', { 'retry-after': '30' }, 'rate_limited', 'coins: HTTP 429 code E_SLOW: slow down'],
    ['an error inside an answer of status 200', 200, '{"ok":false,"error":{"code":"E_HALT","text":"trading halted"}}', {}, 'http_4xx', 'coins: HTTP 200 code E_HALT: trading halted'],
    ['a body of another shape', 200, '{"assets":[]}', {}, 'schema', 'coins: expected {"ok": true, "data": [...]}, got an object'],
  ])('reads %s as its error answers say', async (_name, status, body, headers, kind, message) => {
    exchange.answer = (path) => (path === LEDGER_PATHS.assets ? { status, body, headers } : undefined);
    const c = client();
    const err = await c.fetchCoins().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeError);
    expect([(err as ExchangeError).kind, (err as ExchangeError).message]).toEqual([kind, message]);
    await c.close();
  });

  it('reads a time answer of another shape as an error of the fetch that re-synced (schema), not a fault of its own', async () => {
    exchange.answer = (path) => (path === LEDGER_PATHS.time ? { status: 200, body: '{"ok":true}' } : undefined);
    const c = client();
    await expect(c.fetchCoins()).rejects.toMatchObject({ name: 'ExchangeError', kind: 'schema', message: 'time: expected {"ok": true, "time": <ms>}' });
    await c.close();
  });

  it('asks for nothing while the pause a rate limit asked for lasts', async () => {
    exchange.answer = () => ({ status: 429, body: '{"ok":false,"error":{"code":"E_SLOW","text":"slow down"}}', headers: { 'retry-after': '30' } });
    const c = client();
    await expect(c.fetchTickers([])).rejects.toMatchObject({ kind: 'rate_limited', retryAfterMs: 30_000 });
    await expect(c.fetchCoins()).rejects.toMatchObject({ kind: 'rate_limited', message: 'coins: not sent, the exchange asked for a pause of 30 s' });
    expect(exchange.requests).toEqual([LEDGER_PATHS.tickers]);
    await c.close();
  });

  it('refuses credentials of the wrong shape before sending anything', () => {
    expect(() => client({ credentials: { api_key: 'k' } })).toThrow();
    expect(exchange.requests).toEqual([]);
  });
});
