import { dialects } from '../../../src/exchange/dialects/registry';
import type { NetworkRecord } from '../../../src/snapshot/model';
import { clientOf, failure, fixture, fixtureWith, RecordedExchange, type Answer } from './recorded';

/** HTX's recorded answers (fixtures/README.md), read by the real client from a loopback HTX. */

const htx = dialects.named('htx');
const PATHS = { coins: '/v2/reference/currencies', tickers: '/market/tickers' };

const APT: NetworkRecord = {
  network: 'aptusdt', coin: 'USDT', name: 'APT', isDefault: null, depositEnable: true, withdrawEnable: true,
  // withdrawFeeType "fixed": transactFeeWithdraw.
  withdrawFee: '0', withdrawMin: '10', withdrawInternalMin: null, withdrawIntegerMultiple: '0.000001', minConfirm: 1, withdrawTag: false,
  depositDust: '1', contractAddress: null, contractAddressUrl: null, depositDesc: null, withdrawDesc: null,
};
const NETWORKS: NetworkRecord[] = [
  APT,
  { ...APT, network: 'arc20usdt', name: 'ARBITRUM', withdrawEnable: false, withdrawFee: '1', withdrawMin: '1', minConfirm: 64 },
  { ...APT, network: 'optusdt', name: 'OPTIMISM', depositEnable: false, withdrawEnable: false, withdrawFee: '1', withdrawMin: '1', minConfirm: 400 },
];

const WINDOW = { openTime: 1_699_913_600_000, closeTime: 1_700_000_000_000 };
const TICKERS = [
  {
    symbol: 'BHDHT', priceChange: '-0.0029', priceChangePercent: '-0.00121146', lastPrice: '2.3909', bidPrice: '2.3643', bidQty: '0.7136',
    askPrice: '2.4061', askQty: '0.4156', openPrice: '2.3938', highPrice: '2.4151', lowPrice: '2.3323', volume: '628.992', quoteVolume: '1493.71841095',
    ...WINDOW, count: 2088,
  },
  {
    symbol: 'BTCUSDT', priceChange: '67.91', priceChangePercent: '0.00747994', lastPrice: '9146.86', bidPrice: null, bidQty: null, askPrice: null, askQty: null,
    // Java's number text, kept: `8988.0`, `2.3822168242201668E8`.
    openPrice: '9078.95', highPrice: '9155.41', lowPrice: '8988.0', volume: '26228.672978342216', quoteVolume: '2.3822168242201668E8', ...WINDOW, count: 265846,
  },
];

/** HTX's rate-limit answer, as its docs and client libraries give it. */
const TOO_FREQUENT = '{"status":"error","err-code":"api-request-too-frequent","err-msg":"Request too frequent. Please try again later.","data":null}';

let exchange: RecordedExchange;
beforeEach(async () => {
  exchange = await new RecordedExchange(new Map<string, Answer>([
    [PATHS.coins, { body: fixture('htx', 'currencies.json') }],
    [PATHS.tickers, { body: fixture('htx', 'tickers.json') }],
  ])).start();
});
afterEach(() => exchange.stop());

/** The recorded currencies with the first chain's fields replaced (undefined: left out). */
function currenciesWith(fields: Record<string, unknown>): string {
  return fixtureWith('htx', 'currencies.json', (b: { data: { chains: Record<string, unknown>[] }[] }) => b.data[0]!.chains[0]!, fields);
}

describe('htx', () => {
  it('is registered with HTX public API as its default address', () => {
    expect(htx.defaults).toEqual({ baseUrl: 'https://api.huobi.pro', symbolsCap: 0, weightLimit: { max: 100, windowMs: 10_000 } });
    expect([htx.requests.coins(), htx.requests.tickers(['BTCUSDT'])]).toEqual([{ path: PATHS.coins, weight: 1 }, { path: PATHS.tickers, weight: 1 }]);
  });

  it('decodes the recorded currencies exactly: allowed/prohibited, the fee of its type, 10^-precision', async () => {
    const c = clientOf(htx, exchange.url);
    expect(await c.fetchCoins()).toEqual({
      records: [{ coin: 'USDT', name: null, depositAllEnable: false, withdrawAllEnable: false, networkList: NETWORKS }],
      issues: [], bytes: expect.any(Number), requests: 1, texts: expect.anything(),
    });
    await c.close();
  });

  it('decodes the recorded tickers exactly: the text of Java numbers kept, change and ratio derived', async () => {
    const c = clientOf(htx, exchange.url);
    expect((await c.fetchTickers([])).records).toEqual(TICKERS);
    await c.close();
  });

  it.each([
    ['circulated', { withdrawFeeType: 'circulated', minTransactFeeWithdraw: '0.5' }, '0.5'],
    ['ratio', { withdrawFeeType: 'ratio', transactFeeRateWithdraw: '0.001' }, null],
    ['not sent', { withdrawFeeType: undefined }, null],
  ])('reads the fee of the fee type %s', async (_type, fields, fee) => {
    exchange.answers.set(PATHS.coins, { body: currenciesWith(fields) });
    const c = clientOf(htx, exchange.url);
    expect((await c.fetchCoins()).records[0]?.networkList[0]?.withdrawFee).toBe(fee);
    await c.close();
  });

  it('sets aside a chain whose status is neither allowed nor prohibited; the coin stays closed by the others', async () => {
    exchange.answers.set(PATHS.coins, { body: currenciesWith({ depositStatus: 'suspended' }) });
    const c = clientOf(htx, exchange.url);
    const answer = await c.fetchCoins();
    expect(answer.issues).toEqual([{ entity: 'network', coin: 'USDT', network: 'aptusdt', index: 0, reason: 'depositStatus is not a status this dialect knows' }]);
    // One known chain is closed each way: the coin's flags are known to be false.
    expect(answer.records.map((r) => [r.networkList.map((n) => n.network), r.depositAllEnable, r.withdrawAllEnable])).toEqual([[['arc20usdt', 'optusdt'], false, false]]);
    await c.close();
  });

  it.each([
    ['a market error inside an answer of status 200', PATHS.tickers, { body: '{"status":"error","err-code":"invalid-parameter","err-msg":"invalid symbol","data":null}' },
      ['http_4xx', 'tickers: HTTP 200 code invalid-parameter: invalid symbol', undefined]],
    ['a reference-data error inside an answer of status 200', PATHS.coins, { body: '{"code":500,"message":"system error","success":false}' },
      ['http_4xx', 'coins: HTTP 200 code 500: system error', undefined]],
    ['a rate limit', PATHS.tickers, { status: 429, body: TOO_FREQUENT, headers: { 'retry-after': '3' } },
      ['rate_limited', 'tickers: HTTP 429 code api-request-too-frequent: Request too frequent. Please try again later.', 3_000]],
    ['a rate limit inside an answer of status 200', PATHS.tickers, { body: TOO_FREQUENT },
      ['rate_limited', 'tickers: HTTP 200 code api-request-too-frequent: Request too frequent. Please try again later.', undefined]],
    ['an answer without data', PATHS.tickers, { body: '{"status":"ok","ts":1}' }, ['schema', 'tickers: expected {"status": "ok", "data": [...]}, got an object', undefined]],
  ])('reads %s as HTX means it', async (_name, path, answer: Answer, expected) => {
    exchange.answers.set(path, answer);
    const c = clientOf(htx, exchange.url);
    expect(await failure(path === PATHS.coins ? c.fetchCoins() : c.fetchTickers([]))).toEqual(expected);
    await c.close();
  });
});
