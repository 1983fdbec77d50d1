import { createHmac } from 'node:crypto';
import { bybit } from '../../../src/exchange/dialects/bybit';
import { signBybit } from '../../../src/exchange/dialects/bybit/sign';
import { dialects } from '../../../src/exchange/dialects/registry';
import { clientOf, decodeText, fixture, json, SignedExchange } from './signed-exchange';
import { bybitExchange, KEYS as SIGNED_KEYS } from './signed-exchanges';

/**
 * `bybit`: `"1"`/`"0"` flags, `""` as no value, the v5 HMAC headers, errors inside 200 answers
 * (the timestamp among them), 403 as an IP ban.
 */

const KEYS = SIGNED_KEYS.bybit;

const ARBI = {
  network: 'ARBI', coin: 'USDT', name: 'Arbitrum One', isDefault: null, depositEnable: true, withdrawEnable: true, withdrawFee: '1',
  withdrawMin: '1', withdrawInternalMin: null, withdrawIntegerMultiple: '0.0001', minConfirm: 120, withdrawTag: null, depositDust: '0',
  contractAddress: '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9', contractAddressUrl: null, depositDesc: null, withdrawDesc: null,
};
const USDT = {
  coin: 'USDT', name: 'USDT', depositAllEnable: false, withdrawAllEnable: false, networkList: [
    ARBI,
    { ...ARBI, network: 'CAVAX', name: 'CAVAX', withdrawEnable: false, withdrawMin: '10', minConfirm: 30, contractAddress: '0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7' },
    { ...ARBI, network: 'TRX', name: 'TRC20', withdrawFee: '1.6', withdrawMin: '2.6', minConfirm: 20, contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
    { ...ARBI, network: 'ZKSYNC', name: 'zkSync Lite', depositEnable: false, withdrawEnable: false, withdrawFee: '0.3', withdrawMin: '0.3', minConfirm: null, depositDust: null, contractAddress: '0xdac17f958d2ee523a2206206994597c13d831ec7' },
  ],
};
const BTCUSDT = {
  symbol: 'BTCUSDT', priceChange: '139.65', priceChangePercent: '0.0068', lastPrice: '20533.13', bidPrice: '20517.96', bidQty: '2',
  askPrice: '20527.77', askQty: '1.862172', openPrice: '20393.48', highPrice: '21128.12', lowPrice: '20318.89', volume: '11801.27771',
  quoteVolume: '243765620.65899866', openTime: 1673772687947, closeTime: 1673859087947, count: null,
};

describe('bybit: recorded answers', () => {
  it('is in the registry, with Bybit as its default host', () => {
    expect(dialects.named('bybit')).toBe(bybit);
    expect(bybit.defaults.baseUrl).toBe('https://api.bybit.com');
  });

  it('decodes the coin info exactly: "1"/"0" flags, "" as null, 10^-minAccuracy, derived coin flags', async () => {
    expect(await decodeText(bybit, 'coins', fixture('bybit', 'coin-query-info.json'))).toEqual({ records: [USDT], issues: [] });
  });

  it('sets aside a network whose flag is neither "1" nor "0", or missing (unknown is never closed); the other networks are read', async () => {
    for (const [from, to, reason] of [
      ['"chainWithdraw":"0"', '"chainWithdraw":"2"', 'chainWithdraw is not "1" or "0"'],
      ['"chainDeposit":"1","chainWithdraw":"0"', '"chainWithdraw":"0"', 'chainDeposit is missing'],
    ]) {
      const text = fixture('bybit', 'coin-query-info.json').replace(from as string, to as string);
      // ZKSYNC is closed both ways: the coin's flags are false whatever CAVAX's are.
      const records = [{ ...USDT, networkList: USDT.networkList.filter((n) => n.network !== 'CAVAX') }];
      expect(await decodeText(bybit, 'coins', text)).toEqual({ records, issues: [{ entity: 'network', coin: 'USDT', network: 'CAVAX', index: 1, reason }] });
    }
  });

  it('decodes the tickers exactly: change derived from prevPrice24h, the window from the top-level time', async () => {
    expect(await decodeText(bybit, 'tickers', fixture('bybit', 'tickers.json'))).toEqual({ records: [BTCUSDT], issues: [] });
  });
});

describe('bybit: signing', () => {
  it('signs timestamp + key + recv window + query, hex, in the X-BAPI headers', () => {
    const signed = signBybit({ path: '/v5/asset/coin/query-info?coin=USDT', weight: 1, signed: true }, KEYS, 1672211928338);
    const sign = createHmac('sha256', KEYS.api_secret).update('1672211928338bybit-key5000coin=USDT').digest('hex');
    expect(signed.headers).toEqual({ 'X-BAPI-API-KEY': 'bybit-key', 'X-BAPI-TIMESTAMP': '1672211928338', 'X-BAPI-RECV-WINDOW': '5000', 'X-BAPI-SIGN': sign });
    expect(signed.path).toBe('/v5/asset/coin/query-info?coin=USDT');
  });
});


describe('bybit: through the real client', () => {
  let exchange: SignedExchange;
  afterEach(() => exchange.stop());

  it('reads the signed coin info, re-syncing once on 10002 sent inside a 200 answer', async () => {
    exchange = await bybitExchange(KEYS.api_secret, 60_000).start();
    const client = clientOf(bybit, exchange.url, KEYS);
    expect(await client.fetchCoins()).toEqual({ records: [USDT], issues: [], bytes: expect.any(Number), requests: 1, texts: expect.anything() });
    expect(exchange.paths()).toEqual(['/v5/asset/coin/query-info', '/v5/market/time', '/v5/asset/coin/query-info']);
    expect((await client.fetchTickers(['BTCUSDT'])).records).toEqual([BTCUSDT]);
    await client.close();
  });

  it('gives Bybit\'s own error for a wrong secret, without the key it echoes', async () => {
    exchange = await bybitExchange('wrong').start();
    const client = clientOf(bybit, exchange.url, KEYS);
    await expect(client.fetchCoins()).rejects.toMatchObject({ kind: 'http_4xx', code: '10004', message: 'coins: HTTP 401 code 10004: error sign! origin_string[<redacted>]' });
    await client.close();
  });

  it('pauses on 10006 inside a 200 answer, and takes 403 as an IP ban', async () => {
    exchange = await new SignedExchange(() => json(200, { retCode: 10006, retMsg: 'Too many visits!', result: {}, retExtInfo: {}, time: 1 })).start();
    let client = clientOf(bybit, exchange.url, KEYS);
    await expect(client.fetchTickers(['BTCUSDT'])).rejects.toMatchObject({ kind: 'rate_limited', code: '10006' });
    await client.close();
    await exchange.stop();
    exchange = await new SignedExchange(() => ({ status: 403, body: 'access too frequent' })).start();
    client = clientOf(bybit, exchange.url, KEYS);
    await expect(client.fetchTickers(['BTCUSDT'])).rejects.toMatchObject({ kind: 'banned' });
    await client.close();
  });
});
