import { dialects } from '../../../src/exchange/dialects/registry';
import { diff } from '../../../src/snapshot/diff';
import { applyCoins } from '../../../src/snapshot/merge';
import { emptySnapshot, type NetworkRecord } from '../../../src/snapshot/model';
import { clientOf, failure, fixture, fixtureWith, RecordedExchange, type Answer } from './recorded';

/** KuCoin's recorded answers (fixtures/README.md), read by the real client from a loopback KuCoin. */

const kucoin = dialects.named('kucoin');
const PATHS = { coins: '/api/v3/currencies', tickers: '/api/v1/market/allTickers' };

const BTC: NetworkRecord = {
  network: 'btc', coin: 'BTC', name: 'BTC', isDefault: null, depositEnable: true, withdrawEnable: true, withdrawFee: '0.0005', withdrawMin: '0.001',
  withdrawInternalMin: null, withdrawIntegerMultiple: '0.00000001', minConfirm: 3, withdrawTag: false, depositDust: '0.0002', contractAddress: '',
  contractAddressUrl: null, depositDesc: null, withdrawDesc: null,
};
const NETWORKS: NetworkRecord[] = [
  BTC,
  { ...BTC, network: 'btcln', name: 'Lightning Network', withdrawFee: '0.000015', withdrawMin: '0.00001', minConfirm: 1, depositDust: '0.00001' },
  // `depositMinSize: null`: not sent, null.
  { ...BTC, network: 'kcc', name: 'KCC', withdrawFee: '0.00002', withdrawMin: '0.0008', minConfirm: 20, depositDust: null, contractAddress: '0xfa93c12cd345c658bc4644d1d4e1b9615952258c' },
  { ...BTC, network: 'bech32', name: 'BTC-Segwit', withdrawEnable: false, withdrawMin: '0.0008', minConfirm: 2 },
];

const TICKER = {
  symbol: 'BTCUSDT', priceChange: '-98.5', priceChangePercent: '-0.0014', lastPrice: '67193', bidPrice: '67192.5', bidQty: '0.000025',
  askPrice: '67192.6', askQty: '1.24949204',
  // last − changePrice: 67193 − (−98.5).
  openPrice: '67291.5', highPrice: '68321.4', lowPrice: '66683.3', volume: '1836.03034612', quoteVolume: '124068431.06726933',
  openTime: 1_729_086_807_043, closeTime: 1_729_173_207_043, count: null,
};

let exchange: RecordedExchange;
beforeEach(async () => {
  exchange = await new RecordedExchange(new Map<string, Answer>([
    [PATHS.coins, { body: fixture('kucoin', 'currencies.json') }],
    [PATHS.tickers, { body: fixture('kucoin', 'all-tickers.json') }],
  ])).start();
});
afterEach(() => exchange.stop());

/** The recorded currencies with one chain's field replaced (undefined: left out). */
function currenciesWith(chain: number, key: string, value: unknown): string {
  return fixtureWith('kucoin', 'currencies.json', (b: { data: { chains: Record<string, unknown>[] }[] }) => b.data[0]!.chains[chain]!, { [key]: value });
}

describe('kucoin', () => {
  it('is registered with KuCoin public API as its default address', () => {
    expect(kucoin.defaults).toEqual({ baseUrl: 'https://api.kucoin.com', symbolsCap: 0, weightLimit: { max: 2_000, windowMs: 30_000 } });
    expect([kucoin.requests.coins(), kucoin.requests.tickers(undefined)]).toEqual([{ path: PATHS.coins, weight: 3 }, { path: PATHS.tickers, weight: 15 }]);
  });

  it('decodes the recorded currencies exactly, coin flags derived from the chains', async () => {
    const c = clientOf(kucoin, exchange.url);
    expect(await c.fetchCoins()).toEqual({
      records: [{ coin: 'BTC', name: 'Bitcoin', depositAllEnable: true, withdrawAllEnable: false, networkList: NETWORKS }],
      issues: [], bytes: expect.any(Number), requests: 1, texts: expect.anything(),
    });
    await c.close();
  });

  it('decodes the recorded tickers exactly and picks the watch list out of every symbol', async () => {
    const c = clientOf(kucoin, exchange.url);
    expect((await c.fetchTickers([])).records).toEqual([TICKER]);
    const watched = await c.fetchTickers(['BTCUSDT', 'ETHUSDT']);
    expect([watched.records, watched.refused]).toEqual([[TICKER], ['ETHUSDT']]);
    expect(exchange.requests).toEqual([PATHS.tickers, PATHS.tickers]);
    await c.close();
  });

  it('gives back an unchanged coin and ticker as their previous objects', async () => {
    const c = clientOf(kucoin, exchange.url);
    const coins = await c.fetchCoins();
    const tickers = await c.fetchTickers([]);
    const again = await c.fetchCoins(undefined, new Map(coins.records.map((r) => [r.coin, r])));
    const againTickers = await c.fetchTickers([], undefined, new Map(tickers.records.map((r) => [r.symbol, r])));
    expect(again.records[0]).toBe(coins.records[0]);
    expect(againTickers.records[0]).toBe(tickers.records[0]);
    await c.close();
  });

  it('never reads a flag it was not sent as closed: the chain is set aside, the coin keeps its flags', async () => {
    const c = clientOf(kucoin, exchange.url);
    const before = applyCoins(emptySnapshot('kucoin'), await c.fetchCoins(), 1);
    exchange.answers.set(PATHS.coins, { body: currenciesWith(0, 'isWithdrawEnabled', undefined) });
    const answer = await c.fetchCoins(undefined, before.coins);
    expect(answer.issues).toEqual([{ entity: 'network', coin: 'BTC', network: 'btc', index: 0, reason: 'isWithdrawEnabled is missing' }]);
    const after = applyCoins(before, answer, 2);
    expect(after.coins.get('BTC')).toEqual(before.coins.get('BTC'));
    expect(diff(before, after)).toEqual([]);
    await c.close();
  });

  it('sets a coin aside when a chain is unknown and there is no previous coin to keep its flags', async () => {
    exchange.answers.set(PATHS.coins, { body: currenciesWith(1, 'isDepositEnabled', 'maybe') });
    const c = clientOf(kucoin, exchange.url);
    expect((await c.fetchCoins()).issues).toEqual([
      { entity: 'network', coin: 'BTC', network: 'btcln', index: 1, reason: 'isDepositEnabled is not a status this dialect knows' },
      { entity: 'coin', coin: 'BTC', index: 0, reason: 'the coin flags are unknown: a network was set aside and no other is closed' },
    ]);
    await c.close();
  });

  it.each([
    ['an error inside an answer of status 200', { status: 200, body: '{"code":"400100","msg":"Parameter Error"}' }, ['http_4xx', 'coins: HTTP 200 code 400100: Parameter Error', undefined]],
    ['a refusal', { status: 400, body: '{"code":"400100","msg":"Parameter Error"}' }, ['http_4xx', 'coins: HTTP 400 code 400100: Parameter Error', undefined]],
    ['a rate limit', { status: 429, body: '{"code":"429000","msg":"Too Many Requests"}', headers: { 'retry-after': '7' } }, ['rate_limited', 'coins: HTTP 429 code 429000: Too Many Requests', 7_000]],
    ['a rate limit inside an answer of status 200', { status: 200, body: '{"code":"429000","msg":"Too Many Requests"}' }, ['rate_limited', 'coins: HTTP 200 code 429000: Too Many Requests', undefined]],
    ['an answer of another shape', { status: 200, body: '{"code":"200000","data":{"currency":"BTC"}}' }, ['schema', 'coins: expected a list in data, got an object', undefined]],
  ])('reads %s as KuCoin means it', async (_name, answer: Answer, expected) => {
    exchange.answers.set(PATHS.coins, answer);
    const c = clientOf(kucoin, exchange.url);
    expect(await failure(c.fetchCoins())).toEqual(expected);
    await c.close();
  });

  it('sets aside a malformed ticker and reads the others', async () => {
    exchange.answers.set(PATHS.tickers, {
      body: '{"code":"200000","data":{"time":1729173207043,"ticker":[{"symbol":"ETH-USDT","last":"abc"},{"symbol":"SOL-USDT","last":"150.5"},{"last":"1"}]}}',
    });
    const c = clientOf(kucoin, exchange.url);
    const answer = await c.fetchTickers([]);
    expect(answer.records.map((t) => [t.symbol, t.lastPrice, t.openPrice, t.priceChange])).toEqual([['SOLUSDT', '150.5', null, null]]);
    expect(answer.issues).toEqual([
      { entity: 'ticker', symbol: 'ETHUSDT', index: 0, reason: 'last is not a decimal' },
      { entity: 'ticker', index: 2, reason: 'the ticker has no symbol' },
    ]);
    await c.close();
  });
});
