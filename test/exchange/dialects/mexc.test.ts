import { mexc } from '../../../src/exchange/dialects/mexc';
import { dialects } from '../../../src/exchange/dialects/registry';
import { clientOf, decodeText, fixture, json, SignedExchange } from './signed-exchange';
import { mexcExchange, KEYS as SIGNED_KEYS } from './signed-exchanges';

/**
 * `mexc`: Binance-like, with its own key header, codes and fields. Recorded answers decoded
 * exactly; the real client against a loopback MEXC checking key, timestamp and signature.
 */

const KEYS = SIGNED_KEYS.mexc;

const NETWORK = {
  network: 'BSC', coin: 'BTC', name: 'BTC-BSC', isDefault: null, depositEnable: true, withdrawEnable: true, withdrawFee: '0.00000025',
  withdrawMin: '0.00002', withdrawInternalMin: null, withdrawIntegerMultiple: '18', minConfirm: 61, withdrawTag: false, depositDust: null,
  contractAddress: '0x7130d2a12b9bcbfae4f2634d864a1ee1ce3ead9c', contractAddressUrl: null, depositDesc: null, withdrawDesc: null,
};
const COINS = [
  {
    coin: 'BTC', name: 'Bitcoin', depositAllEnable: true, withdrawAllEnable: true, networkList: [
      NETWORK,
      { ...NETWORK, network: 'BTC', name: 'Bitcoin', withdrawFee: '0.00002', withdrawMin: '0.00008', withdrawIntegerMultiple: '8', minConfirm: 3, contractAddress: '' },
    ],
  },
  {
    coin: 'USDT', name: 'Tether', depositAllEnable: true, withdrawAllEnable: true, networkList: [
      { ...NETWORK, network: 'TRX', coin: 'USDT', name: 'Tether', withdrawFee: '1', withdrawMin: '2', withdrawIntegerMultiple: '6', minConfirm: 20, contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
      { ...NETWORK, network: 'TONCOIN', coin: 'USDT', name: 'USDT', withdrawFee: '0.019', withdrawMin: '8', withdrawIntegerMultiple: '6', minConfirm: 10, withdrawTag: true, contractAddress: 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs' },
    ],
  },
];
const BTCUSDT = {
  symbol: 'BTCUSDT', priceChange: '184.34', priceChangePercent: '0.00400048', lastPrice: '46263.71', bidPrice: '46260.38', bidQty: null,
  askPrice: '46260.41', askQty: null, openPrice: '46079.37', highPrice: '47550.01', lowPrice: '45555.5', volume: '1732.461487',
  quoteVolume: null, openTime: 1641349500000, closeTime: 1641349582808, count: null,
};

describe('mexc: recorded answers', () => {
  it('is in the registry, with MEXC as its default host', () => {
    expect(dialects.named('mexc')).toBe(mexc);
    expect(mexc.defaults).toEqual({ baseUrl: 'https://api.mexc.com', symbolsCap: 0, weightLimit: { max: 500, windowMs: 10_000 } });
  });

  it('decodes the capital config exactly: netWork ids, contract, derived flags, string confirmations', async () => {
    expect(await decodeText(mexc, 'coins', fixture('mexc', 'getall.json'))).toEqual({ records: COINS, issues: [] });
  });

  it('derives a coin flag closed when one network is closed, and reads the older network id when netWork is absent', async () => {
    const text = fixture('mexc', 'getall.json').replace('"withdrawEnable": true,\n                "withdrawFee": "1"', '"withdrawEnable": false,\n                "withdrawFee": "1"').replace('"netWork": "TRX"', '"other": "TRX"');
    const { records } = (await decodeText(mexc, 'coins', text)) as { records: typeof COINS };
    expect(records[1]).toMatchObject({ withdrawAllEnable: false, depositAllEnable: true });
    expect(records[1]?.networkList[0]).toMatchObject({ network: 'Tron(TRC20)', withdrawEnable: false });
  });

  it('decodes the 24 h ticker exactly: its ratio carried, "" quantities null, no count', async () => {
    expect(await decodeText(mexc, 'tickers', fixture('mexc', 'ticker-24hr.json'))).toEqual({ records: [BTCUSDT], issues: [] });
  });
});


describe('mexc: through the real client', () => {
  let exchange: SignedExchange;
  afterEach(() => exchange.stop());

  it('signs with X-MEXC-APIKEY and re-syncs its clock once on 700003', async () => {
    exchange = await mexcExchange(KEYS.api_secret, -3_600_000).start();
    const client = clientOf(mexc, exchange.url, KEYS);
    expect(await client.fetchCoins()).toEqual({ records: COINS, issues: [], bytes: expect.any(Number), requests: 1, texts: expect.anything() });
    expect(exchange.paths()).toEqual(['/api/v3/capital/config/getall', '/api/v3/time', '/api/v3/capital/config/getall']);
    // Every ticker in one request (MEXC takes no list), the watch list picked out.
    const tickers = await client.fetchTickers(['BTCUSDT', 'ETHUSDT']);
    expect(tickers.records).toEqual([BTCUSDT]);
    expect(exchange.asked.at(-1)?.path).toBe('/api/v3/ticker/24hr');
    await client.close();
  });

  it('gives MEXC\'s own error for a wrong secret', async () => {
    exchange = await mexcExchange('wrong').start();
    const client = clientOf(mexc, exchange.url, KEYS);
    await expect(client.fetchCoins()).rejects.toMatchObject({ kind: 'http_4xx', code: '700002', message: 'coins: HTTP 400 code 700002: Signature for this request is not valid.' });
    await client.close();
  });

  it('reads an error body sent with status 200 as MEXC refusing, never as an empty exchange', async () => {
    exchange = await new SignedExchange(() => json(200, { code: 10072, msg: 'Api key info invalid' })).start();
    const client = clientOf(mexc, exchange.url, KEYS);
    await expect(client.fetchCoins()).rejects.toMatchObject({ kind: 'http_4xx', code: '10072', message: 'coins: HTTP 200 code 10072: Api key info invalid' });
    await client.close();
  });

  it('pauses on 429', async () => {
    exchange = await new SignedExchange(() => json(429, { code: 429, msg: 'Too Many Requests' }, { 'retry-after': '3' })).start();
    const client = clientOf(mexc, exchange.url, KEYS);
    await expect(client.fetchTickers(['BTCUSDT'])).rejects.toMatchObject({ kind: 'rate_limited', retryAfterMs: 3_000 });
    await client.close();
  });
});
