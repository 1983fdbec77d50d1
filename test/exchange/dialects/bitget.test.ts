import { dialects } from '../../../src/exchange/dialects/registry';
import type { NetworkRecord } from '../../../src/snapshot/model';
import { clientOf, failure, fixture, fixtureWith, RecordedExchange, type Answer } from './recorded';

/** Bitget's recorded answers (fixtures/README.md), read by the real client from a loopback Bitget. */

const bitget = dialects.named('bitget');
const PATHS = { coins: '/api/v2/spot/public/coins', tickers: '/api/v2/spot/market/tickers' };

const DOCUMENTED: NetworkRecord = {
  network: 'BTC', coin: 'BTC', name: null, isDefault: null, depositEnable: true, withdrawEnable: true, withdrawFee: '0.005', withdrawMin: '0.001',
  // withdrawStep "0": 10^-withdrawMinScale.
  withdrawInternalMin: null, withdrawIntegerMultiple: '0.00000001', minConfirm: 1, withdrawTag: false, depositDust: '0.001',
  contractAddress: '0xdac17f958d2ee523a2206206994597c13d831ec7', contractAddressUrl: null, depositDesc: null, withdrawDesc: null,
};
const RECORDED: NetworkRecord = { ...DOCUMENTED, withdrawFee: '0.00005', withdrawMin: '0.0005', depositDust: '0.00001', contractAddress: null };

const TICKER = {
  symbol: 'BTCUSDT', priceChange: '381.23',
  // change24h as sent: Bitget's open and change24h disagree (dialects.md).
  priceChangePercent: '0.00321', lastPrice: '37583.69', bidPrice: '37583.68', bidQty: '0.0007', askPrice: '37583.69', askQty: '0.0829',
  openPrice: '37202.46', highPrice: '37744.75', lowPrice: '36666', volume: '13907.0386', quoteVolume: '519127705.303',
  openTime: 1_700_446_503_261, closeTime: 1_700_532_903_261, count: null,
};

let exchange: RecordedExchange;
beforeEach(async () => {
  exchange = await new RecordedExchange(new Map<string, Answer>([
    [PATHS.coins, { body: fixture('bitget', 'coins.json') }],
    [PATHS.tickers, { body: fixture('bitget', 'tickers.json') }],
  ])).start();
});
afterEach(() => exchange.stop());

/** The documented coins with the chain's fields replaced (undefined: left out). */
function coinsWith(fields: Record<string, unknown>): string {
  return fixtureWith('bitget', 'coins.json', (b: { data: { chains: Record<string, unknown>[] }[] }) => b.data[0]!.chains[0]!, fields);
}

describe('bitget', () => {
  it('is registered with Bitget public API as its default address', () => {
    expect(bitget.defaults).toEqual({ baseUrl: 'https://api.bitget.com', symbolsCap: 0, weightLimit: { max: 20, windowMs: 1_000 } });
    expect([bitget.requests.coins(), bitget.requests.tickers(undefined)]).toEqual([{ path: PATHS.coins, weight: 7 }, { path: PATHS.tickers, weight: 1 }]);
  });

  it.each([
    ['documented', 'coins.json', DOCUMENTED],
    ['recorded', 'coins-recorded.json', RECORDED],
  ])('decodes the %s coins exactly: "true"/"false" strings, depositConfirm as an integer', async (_name, file, network) => {
    exchange.answers.set(PATHS.coins, { body: fixture('bitget', file) });
    const c = clientOf(bitget, exchange.url);
    expect(await c.fetchCoins()).toEqual({
      records: [{ coin: 'BTC', name: null, depositAllEnable: true, withdrawAllEnable: true, networkList: [network] }],
      issues: [], bytes: expect.any(Number), requests: 1, texts: expect.anything(),
    });
    await c.close();
  });

  it('decodes the recorded tickers exactly: the change derived from open, the ratio as sent', async () => {
    const c = clientOf(bitget, exchange.url);
    expect((await c.fetchTickers(['BTCUSDT'])).records).toEqual([TICKER]);
    expect(exchange.requests).toEqual([PATHS.tickers]);
    await c.close();
  });

  it.each([
    ['a withdrawal step', { withdrawStep: '0.01' }, { withdrawIntegerMultiple: '0.01' }],
    ['a closed deposit, a tag needed', { rechargeable: 'false', needTag: 'true' }, { depositEnable: false, withdrawTag: true }],
    ['no tag flag', { needTag: undefined }, { withdrawTag: null }],
    ['an empty confirmation count (rule 2: no value)', { depositConfirm: '' }, { minConfirm: null }],
    ['an empty fee', { withdrawFee: '' }, { withdrawFee: null }],
  ])('reads %s', async (_name, fields, expected) => {
    exchange.answers.set(PATHS.coins, { body: coinsWith(fields) });
    const c = clientOf(bitget, exchange.url);
    expect((await c.fetchCoins()).records[0]?.networkList[0]).toEqual({ ...DOCUMENTED, ...expected });
    await c.close();
  });

  it('sets aside a chain whose withdrawable is not "true" or "false"', async () => {
    exchange.answers.set(PATHS.coins, { body: coinsWith({ withdrawable: 'paused' }) });
    const c = clientOf(bitget, exchange.url);
    expect((await c.fetchCoins()).issues).toEqual([
      { entity: 'network', coin: 'BTC', network: 'BTC', index: 0, reason: 'withdrawable is not a status this dialect knows' },
      { entity: 'coin', coin: 'BTC', index: 0, reason: 'the coin flags are unknown: a network was set aside and no other is closed' },
    ]);
    await c.close();
  });

  it.each([
    ['an error inside an answer of status 200', { body: '{"code":"40034","msg":"Parameter does not exist","requestTime":1695806875837,"data":null}' },
      ['http_4xx', 'coins: HTTP 200 code 40034: Parameter does not exist', undefined]],
    ['a refusal', { status: 400, body: '{"code":"40034","msg":"Parameter does not exist","requestTime":1695806875837,"data":null}' },
      ['http_4xx', 'coins: HTTP 400 code 40034: Parameter does not exist', undefined]],
    ['a rate limit', { status: 429, body: '{"code":"429","msg":"Too Many Requests","requestTime":1695806875837,"data":null}', headers: { 'retry-after': '1' } },
      ['rate_limited', 'coins: HTTP 429 code 429: Too Many Requests', 1_000]],
    ['an answer without data', { body: '{"code":"00000","msg":"success","requestTime":1695806875837}' },
      ['schema', 'coins: expected {"code": "00000", "data": [...]}, got an object', undefined]],
  ])('reads %s as Bitget means it', async (_name, answer: Answer, expected) => {
    exchange.answers.set(PATHS.coins, answer);
    const c = clientOf(bitget, exchange.url);
    expect(await failure(c.fetchCoins())).toEqual(expected);
    await c.close();
  });
});
