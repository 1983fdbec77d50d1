import { createHmac } from 'node:crypto';
import { okx } from '../../../src/exchange/dialects/okx';
import { okxSignature, signOkx } from '../../../src/exchange/dialects/okx/sign';
import { dialects } from '../../../src/exchange/dialects/registry';
import { clientOf, decodeText, fixture, json, SignedExchange } from './signed-exchange';
import { okxExchange, KEYS as SIGNED_KEYS } from './signed-exchanges';

/**
 * `okx`: one currencies row per coin and chain (grouped), derived change, the passphrase and
 * base64 signature of OKX's REST authentication, its codes inside and outside 200 answers.
 */

const KEYS = SIGNED_KEYS.okx;

const BTC = {
  network: 'BTC-Bitcoin', coin: 'BTC', name: null, isDefault: true, depositEnable: true, withdrawEnable: true, withdrawFee: '0.00017',
  withdrawMin: '0.001', withdrawInternalMin: null, withdrawIntegerMultiple: '0.00000001', minConfirm: 1, withdrawTag: false,
  depositDust: '0.0005', contractAddress: null, contractAddressUrl: null, depositDesc: null, withdrawDesc: null,
};
const COINS = [
  {
    coin: 'BTC', name: 'Bitcoin', depositAllEnable: true, withdrawAllEnable: false, networkList: [
      BTC,
      { ...BTC, network: 'BTC-Lightning', isDefault: false, withdrawFee: '0.000001', withdrawMin: '0.000001', depositDust: '0.000001' },
      { ...BTC, network: 'BTCK-OKTC', isDefault: false, withdrawEnable: false, withdrawFee: '0', withdrawMin: '0', minConfirm: 2, depositDust: '0.00000001' },
    ],
  },
  {
    coin: 'USDT', name: 'Tether', depositAllEnable: true, withdrawAllEnable: true, networkList: [
      { ...BTC, network: 'USDT-ERC20', coin: 'USDT', isDefault: false, withdrawFee: '3.82', withdrawMin: '2', minConfirm: 64, depositDust: '0.00000001' },
      { ...BTC, network: 'USDT-TRC20', coin: 'USDT', isDefault: false, withdrawFee: '1', withdrawMin: '2', minConfirm: 1, depositDust: '0.00000001' },
    ],
  },
];
const BTCUSDT = {
  symbol: 'BTCUSDT', priceChange: '999.99', priceChangePercent: '0.11111', lastPrice: '9999.99', bidPrice: '8888.88', bidQty: '5',
  askPrice: '9999.99', askQty: '11', openPrice: '9000', highPrice: '10000', lowPrice: '8888.88', volume: '2222', quoteVolume: '2222',
  openTime: 1596939983085, closeTime: 1597026383085, count: null,
};

describe('okx: recorded answers', () => {
  it('is in the registry, with OKX as its default host', () => {
    expect(dialects.named('okx')).toBe(okx);
    expect(okx.defaults.baseUrl).toBe('https://www.okx.com');
  });

  it('decodes the currencies exactly: rows grouped by ccy in first-seen order, 10^-wdTickSz, derived flags', async () => {
    expect(await decodeText(okx, 'coins', fixture('okx', 'currencies.json'))).toEqual({ records: COINS, issues: [] });
  });

  it('groups a coin whose rows are apart, and holds back a new coin whose flags a malformed row leaves unknown', async () => {
    const body = JSON.parse(fixture('okx', 'currencies.json')) as { data: Record<string, unknown>[] };
    const [b1, b2, b3, u1, u2] = body.data;
    const apart = JSON.stringify({ ...body, data: [b1, u1, b2, u2, b3] });
    expect(await decodeText(okx, 'coins', apart)).toEqual({ records: COINS, issues: [] });
    const broken = JSON.stringify({ ...body, data: [b1, b2, b3, u1, { ...u2, canWd: undefined }] });
    // Seen for the first time with a network unknown and none closed, its flags are unknown: the coin is held back.
    expect(await decodeText(okx, 'coins', broken)).toEqual({
      records: [COINS[0]],
      issues: [
        { entity: 'network', coin: 'USDT', network: 'USDT-TRC20', index: 1, reason: 'canWd is missing' },
        { entity: 'coin', coin: 'USDT', index: 1, reason: 'the coin flags are unknown: a network was set aside and no other is closed' },
      ],
    });
  });

  it('decodes the tickers exactly: change and ratio derived from last and open24h, the window from ts', async () => {
    expect(await decodeText(okx, 'tickers', fixture('okx', 'tickers.json'))).toEqual({ records: [BTCUSDT], issues: [] });
  });

  it('reads an error inside a 200 answer as OKX refusing', async () => {
    await expect(decodeText(okx, 'tickers', '{"code":"50014","msg":"Parameter instType can not be empty.","data":[]}')).rejects.toMatchObject({
      name: 'Refused', refusal: { code: '50014', msg: 'Parameter instType can not be empty.' },
    });
  });
});

describe('okx: signing', () => {
  it('signs timestamp + GET + path with the secret, base64, with key, passphrase and ISO timestamp headers', () => {
    const signed = signOkx({ path: '/api/v5/asset/currencies', weight: 1, signed: true }, KEYS, Date.UTC(2020, 11, 8, 9, 8, 57, 715));
    const expected = createHmac('sha256', KEYS.api_secret).update('2020-12-08T09:08:57.715ZGET/api/v5/asset/currencies').digest('base64');
    expect(signed).toEqual({
      path: '/api/v5/asset/currencies', weight: 1, signed: true,
      headers: { 'OK-ACCESS-KEY': 'okx-key', 'OK-ACCESS-PASSPHRASE': 'okx-pass', 'OK-ACCESS-TIMESTAMP': '2020-12-08T09:08:57.715Z', 'OK-ACCESS-SIGN': expected },
    });
    expect(okxSignature(KEYS.api_secret, '2020-12-08T09:08:57.715Z', '/api/v5/asset/currencies')).toBe(expected);
  });
});


describe('okx: through the real client', () => {
  let exchange: SignedExchange;
  afterEach(() => exchange.stop());

  it('reads the signed currencies, re-syncing once when OKX says the timestamp expired (50102)', async () => {
    exchange = await okxExchange(KEYS, 120_000).start();
    const client = clientOf(okx, exchange.url, KEYS);
    expect(await client.fetchCoins()).toEqual({ records: COINS, issues: [], bytes: expect.any(Number), requests: 1, texts: expect.anything() });
    expect(exchange.paths()).toEqual(['/api/v5/asset/currencies', '/api/v5/public/time', '/api/v5/asset/currencies']);
    expect((await client.fetchTickers(['BTCUSDT'])).records).toEqual([BTCUSDT]);
    expect(exchange.asked.at(-1)?.headers['ok-access-key']).toBeUndefined();
    await client.close();
  });

  it.each([
    ['secret', { ...KEYS, api_secret: 'other' }, '50113', 'Invalid Sign'],
    ['passphrase', { ...KEYS, passphrase: 'other' }, '50105', 'OK-ACCESS-PASSPHRASE incorrect'],
  ])('gives OKX\'s own error for a wrong %s', async (_what, exchangeKeys, code, msg) => {
    exchange = await okxExchange(exchangeKeys).start();
    const client = clientOf(okx, exchange.url, KEYS);
    await expect(client.fetchCoins()).rejects.toMatchObject({ kind: 'http_4xx', code, message: `coins: HTTP 401 code ${code}: ${msg}` });
    await client.close();
  });

  it('gives back a coin whose rows did not change as its previous object, each request signed anew', async () => {
    const recorded = fixture('okx', 'currencies.json');
    const rows = recorded.split('\n').filter((l) => l.startsWith('{"canDep"')).map((l) => l.replace(/,$/, ''));
    let body = recorded;
    exchange = await new SignedExchange(({ path }) => (path === '/api/v5/asset/currencies' ? json(200, body) : json(404, ''))).start();
    const client = clientOf(okx, exchange.url, KEYS);
    const first = await client.fetchCoins();
    // USDT's rows first, unchanged; BTC's Lightning chain closed for deposits.
    body = `{"code":"0","msg":"","data":[${[...rows.slice(3), ...rows.slice(0, 3)].join(',\n').replace('"canDep":true,"canInternal":true,"canWd":true,"ccy":"BTC","chain":"BTC-Lightning"', '"canDep":false,"canInternal":true,"canWd":true,"ccy":"BTC","chain":"BTC-Lightning"')}]}`;
    const next = await client.fetchCoins(undefined, new Map(first.records.map((c) => [c.coin, c])));
    expect(next.records.map((c) => [c.coin, c.depositAllEnable])).toEqual([['USDT', true], ['BTC', false]]);
    expect(next.records[0]).toBe(first.records[1]);
    // Each request signed for itself: its signature is the HMAC of its own timestamp and path (OKX's "Signature").
    const signed = exchange.asked.map((a) => [a.headers['ok-access-sign'], createHmac('sha256', KEYS.api_secret).update(`${String(a.headers['ok-access-timestamp'])}GET${a.path}`).digest('base64')]);
    expect(signed).toHaveLength(2);
    for (const [sent, own] of signed) expect(sent).toBe(own);
    await client.close();
  });

  it('pauses on 50011 (429)', async () => {
    exchange = await new SignedExchange(() => json(429, { msg: 'Too Many Requests', code: '50011' })).start();
    const client = clientOf(okx, exchange.url, KEYS);
    await expect(client.fetchTickers(['BTCUSDT'])).rejects.toMatchObject({ kind: 'rate_limited', code: '50011' });
    await client.close();
  });
});
