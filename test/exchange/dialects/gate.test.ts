import { dialects } from '../../../src/exchange/dialects/registry';
import { diff } from '../../../src/snapshot/diff';
import { applyCoins } from '../../../src/snapshot/merge';
import { emptySnapshot, type NetworkRecord } from '../../../src/snapshot/model';
import { clientOf, failure, fixture, RecordedExchange, type Answer } from './recorded';

/** Gate's recorded answers (fixtures/README.md), read by the real client from a loopback Gate. */

const gate = dialects.named('gate');
const PATHS = { coins: '/api/v4/spot/currencies', tickers: '/api/v4/spot/tickers' };

/** The public currency list has no fees, minimums or confirmations: null. */
const GT: NetworkRecord = {
  network: 'GT', coin: 'GT', name: null, isDefault: true, depositEnable: true, withdrawEnable: true, withdrawFee: null, withdrawMin: null,
  withdrawInternalMin: null, withdrawIntegerMultiple: null, minConfirm: null, withdrawTag: null, depositDust: null, contractAddress: '',
  contractAddressUrl: null, depositDesc: null, withdrawDesc: null,
};
const NETWORKS: NetworkRecord[] = [
  GT,
  { ...GT, network: 'ETH', isDefault: false, contractAddress: '0xE66747a101bFF2dBA3697199DCcE5b743b454759' },
  { ...GT, network: 'GTEVM', isDefault: false },
];

const TICKER = {
  symbol: 'KFCUSDT',
  // A 2-decimal percentage only: no exact change or open price (rule 3).
  priceChange: null, priceChangePercent: '-0.0118', lastPrice: '7.255',
  // An older answer: no sizes.
  bidPrice: '7.218', bidQty: null, askPrice: '7.298', askQty: null, openPrice: null,
  highPrice: '7.262', lowPrice: '7.095', volume: '1219.053687865', quoteVolume: '8807.40299875455', openTime: null, closeTime: null, count: null,
};

let exchange: RecordedExchange;
beforeEach(async () => {
  exchange = await new RecordedExchange(new Map<string, Answer>([
    [PATHS.coins, { body: fixture('gate', 'currencies.json') }],
    [PATHS.tickers, { body: fixture('gate', 'tickers.json') }],
  ])).start();
});
afterEach(() => exchange.stop());

function currencies(edit: (coin: Record<string, unknown> & { chains: Record<string, unknown>[] }) => void): string {
  const body = JSON.parse(fixture('gate', 'currencies.json')) as (Record<string, unknown> & { chains: Record<string, unknown>[] })[];
  edit(body[0]!);
  return JSON.stringify(body);
}

describe('gate', () => {
  it('is registered with Gate public API as its default address', () => {
    expect(gate.defaults).toEqual({ baseUrl: 'https://api.gateio.ws', symbolsCap: 0, weightLimit: { max: 200, windowMs: 10_000 } });
    expect([gate.requests.coins(), gate.requests.tickers(undefined)]).toEqual([{ path: PATHS.coins, weight: 1 }, { path: PATHS.tickers, weight: 1 }]);
  });

  it('decodes the recorded currencies exactly: flags from chains[], the main chain the default', async () => {
    const c = clientOf(gate, exchange.url);
    expect(await c.fetchCoins()).toEqual({
      records: [{ coin: 'GT', name: 'GateToken', depositAllEnable: true, withdrawAllEnable: true, networkList: NETWORKS }],
      issues: [], bytes: expect.any(Number), requests: 1, texts: expect.anything(),
    });
    await c.close();
  });

  it('decodes the recorded tickers exactly: the percentage as a ratio, no time', async () => {
    const c = clientOf(gate, exchange.url);
    expect((await c.fetchTickers([])).records).toEqual([TICKER]);
    await c.close();
  });

  it('reads the inverted withdraw_disabled of a chain, and ignores the deprecated coin-level flags', async () => {
    const c = clientOf(gate, exchange.url);
    const before = applyCoins(emptySnapshot('gate'), await c.fetchCoins(), 1);
    exchange.answers.set(PATHS.coins, { body: currencies((coin) => {
      coin.chains[1]!.withdraw_disabled = true;
      // Deprecated: says nothing of the chains.
      coin.deposit_disabled = true;
    }) });
    const after = applyCoins(before, await c.fetchCoins(undefined, before.coins), 2);
    expect(diff(before, after)).toEqual([
      { kind: 'withdraw_all_disabled', exchange: 'gate', coin: 'GT', before: true, after: false, at: 2 },
      { kind: 'withdraw_disabled', exchange: 'gate', coin: 'GT', network: 'ETH', before: true, after: false, at: 2 },
    ]);
    await c.close();
  });

  it('sets aside a chain without its deposit flag and a row without chains[] (the old flat shape), never closing them', async () => {
    exchange.answers.set(PATHS.coins, {
      body: currencies((coin) => {
        delete coin.chains[2]!.deposit_disabled;
      }).replace(/^\[/, '[{"currency":"USDT_BSC","delisted":false,"withdraw_disabled":true,"deposit_disabled":true,"trade_disabled":false,"chain":"BSC"},'),
    });
    const c = clientOf(gate, exchange.url);
    const answer = await c.fetchCoins();
    expect(answer.issues).toEqual([
      { entity: 'coin', coin: 'USDT_BSC', index: 0, reason: 'chains is not a list' },
      { entity: 'network', coin: 'GT', network: 'GTEVM', index: 2, reason: 'deposit_disabled is missing' },
      { entity: 'coin', coin: 'GT', index: 1, reason: 'the coin flags are unknown: a network was set aside and no other is closed' },
    ]);
    expect(answer.records).toEqual([]);
    await c.close();
  });

  it.each([
    ['a refusal', { status: 400, body: '{"label":"INVALID_CURRENCY_PAIR","message":"Invalid currency pair"}' }, ['http_4xx', 'tickers: HTTP 400 code INVALID_CURRENCY_PAIR: Invalid currency pair', undefined]],
    ['an error inside an answer of status 200', { status: 200, body: '{"label":"SERVER_ERROR","message":"Internal server error"}' }, ['http_4xx', 'tickers: HTTP 200 code SERVER_ERROR: Internal server error', undefined]],
    ['a rate limit', { status: 429, body: '{"label":"TOO_MANY_REQUESTS","message":"Request Rate limit Exceeded"}', headers: { 'retry-after': '10' } },
      ['rate_limited', 'tickers: HTTP 429 code TOO_MANY_REQUESTS: Request Rate limit Exceeded', 10_000]],
    ['an answer of another shape', { status: 200, body: '{"tickers":[]}' }, ['schema', 'tickers: expected a list, got an object', undefined]],
  ])('reads %s as Gate means it', async (_name, answer: Answer, expected) => {
    exchange.answers.set(PATHS.tickers, answer);
    const c = clientOf(gate, exchange.url);
    expect(await failure(c.fetchTickers([]))).toEqual(expected);
    await c.close();
  });
});
