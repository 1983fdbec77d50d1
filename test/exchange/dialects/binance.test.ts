import { binance } from '../../../src/exchange/dialects/binance';
import { signBinance } from '../../../src/exchange/dialects/binance/sign';
import { dialects } from '../../../src/exchange/dialects/registry';
import { ExchangeError } from '../../../src/exchange/errors';
import { manualClock } from '../../../src/lib/clock';
import { clientOf, decodeText, fixture, json, SignedExchange } from './signed-exchange';
import { binanceExchange, KEYS as SIGNED_KEYS } from './signed-exchanges';

/**
 * `binance`: recorded answers decoded exactly, the documented HMAC example, and the real client
 * against a loopback exchange that checks key, timestamp (recvWindow) and signature as
 * Binance's "SIGNED Endpoint security" says, answering its documented refusals.
 */

const KEYS = SIGNED_KEYS.binance;

const BSC = {
  network: 'BSC', coin: '1MBABYDOGE', name: 'BNB Smart Chain (BEP20)', isDefault: false, depositEnable: true, withdrawEnable: true,
  withdrawFee: '10', withdrawMin: '20', withdrawInternalMin: '0.01', withdrawIntegerMultiple: '0.01', minConfirm: 5, withdrawTag: false,
  depositDust: '0.01', contractAddress: '0xc748673057861a797275cd8a068abb95a902e8de', contractAddressUrl: 'https://bscscan.com/token/',
  depositDesc: '', withdrawDesc: '',
};
const ETH = {
  ...BSC, network: 'ETH', name: 'Ethereum (ERC20)', isDefault: true, withdrawFee: '1511', withdrawMin: '3022', minConfirm: 6,
  contractAddress: '0xac57de9c1a09fec648e93eb98875b212db0d460b', contractAddressUrl: 'https://etherscan.io/address/',
};
const COIN = { coin: '1MBABYDOGE', name: '1M x BABYDOGE', depositAllEnable: true, withdrawAllEnable: true, networkList: [BSC, ETH] };
const BNBBTC = {
  symbol: 'BNBBTC', priceChange: '-94.99999800', priceChangePercent: '-0.9596', lastPrice: '4.00000200', bidPrice: '4.00000000',
  bidQty: '100.00000000', askPrice: '4.00000200', askQty: '100.00000000', openPrice: '99.00000000', highPrice: '100.00000000',
  lowPrice: '0.10000000', volume: '8913.30000000', quoteVolume: '15.30000000', openTime: 1499783499040, closeTime: 1499869899040, count: 76,
};

describe('binance: recorded answers', () => {
  it('is in the registry, with Binance as its default host', () => {
    expect(dialects.named('binance')).toBe(binance);
    expect(binance.defaults.baseUrl).toBe('https://api.binance.com');
  });

  it('decodes the capital config exactly: flags as sent, sameAddress as withdrawTag, descriptions "" kept', async () => {
    expect(await decodeText(binance, 'coins', fixture('binance', 'getall.json'))).toEqual({ records: [COIN], issues: [] });
  });

  it('decodes the 24 h ticker exactly, its percentage as a ratio', async () => {
    expect(await decodeText(binance, 'tickers', fixture('binance', 'ticker-24hr.json'))).toEqual({ records: [BNBBTC], issues: [] });
    // `?symbol=` answers one object.
    const one = JSON.stringify(JSON.parse(fixture('binance', 'ticker-24hr.json'))[0]);
    expect(await decodeText(binance, 'tickers', one)).toEqual({ records: [BNBBTC], issues: [] });
  });

  it('keeps the exact text of a decimal sent as a bare number', async () => {
    const text = fixture('binance', 'ticker-24hr.json').replace('"lastPrice": "4.00000200"', '"lastPrice": 4.00000200');
    expect(await decodeText(binance, 'tickers', text)).toEqual({ records: [BNBBTC], issues: [] });
  });

  it('sets aside a network without its deposit flag (never read as closed); the coin\'s other networks and its own flags are read', async () => {
    const text = fixture('binance', 'getall.json').replace('"depositEnable": true,', '');
    expect(await decodeText(binance, 'coins', text)).toEqual({ records: [{ ...COIN, networkList: [ETH] }], issues: [{ entity: 'network', coin: '1MBABYDOGE', network: 'BSC', index: 0, reason: 'depositEnable is missing' }] });
  });
});

describe('binance: signing', () => {
  it('gives the signature of Binance\'s worked HMAC SHA256 example', () => {
    const request = { path: '/api/v3/order?symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1', weight: 1 };
    expect(signBinance(request, KEYS, 1499827319559)).toEqual({
      path: '/api/v3/order?symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559&signature=c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71',
      weight: 1,
      headers: { 'X-MBX-APIKEY': KEYS.api_key },
    });
  });

  it('signs the coins request and only it; weights as documented', () => {
    expect(binance.requests.coins()).toEqual({ path: '/sapi/v1/capital/config/getall', weight: 10, signed: true });
    expect(binance.requests.tickers(['BTCUSDT'])).toEqual({ path: '/api/v3/ticker/24hr?symbols=%5B%22BTCUSDT%22%5D', weight: 2 });
    expect(binance.requests.tickers(Array.from({ length: 21 }, (_, i) => `S${i}`)).weight).toBe(40);
    expect(binance.requests.tickers(undefined)).toEqual({ path: '/api/v3/ticker/24hr', weight: 80 });
  });
});


describe('binance: through the real client', () => {
  let exchange: SignedExchange;
  afterEach(() => exchange.stop());

  it('reads the signed coins, re-syncing its clock once when Binance refuses the timestamp (-1021)', async () => {
    exchange = await binanceExchange(KEYS.api_secret, 3_600_000).start();
    const client = clientOf(binance, exchange.url, KEYS);
    expect(await client.fetchCoins()).toEqual({ records: [COIN], issues: [], bytes: expect.any(Number), requests: 1, texts: expect.anything() });
    expect(exchange.paths()).toEqual(['/sapi/v1/capital/config/getall', '/api/v3/time', '/sapi/v1/capital/config/getall']);
    expect(exchange.asked[0]?.headers['x-mbx-apikey']).toBe(KEYS.api_key);
    expect(exchange.asked[0]?.path).toMatch(/^\/sapi\/v1\/capital\/config\/getall\?recvWindow=5000&timestamp=\d+&signature=[0-9a-f]{64}$/);
    await client.fetchTickers(['BNBBTC']);
    expect(exchange.asked.at(-1)?.path).toBe('/api/v3/ticker/24hr?symbols=%5B%22BNBBTC%22%5D');
    expect(exchange.asked.at(-1)?.headers['x-mbx-apikey']).toBeUndefined();
    await client.close();
  });

  it('gives Binance\'s own error for a wrong secret, not an empty exchange', async () => {
    exchange = await binanceExchange('another secret').start();
    const client = clientOf(binance, exchange.url, KEYS);
    const err = await client.fetchCoins().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeError);
    expect(err).toMatchObject({ kind: 'http_4xx', code: '-1022', message: 'coins: HTTP 400 code -1022: Signature for this request is not valid.' });
    expect(String((err as Error).message)).not.toContain(KEYS.api_secret);
    await client.close();
  });

  it('pauses on 429 (rate limited) and 418 (banned), honouring Retry-After', async () => {
    for (const [status, kind] of [[429, 'rate_limited'], [418, 'banned']] as const) {
      exchange = await new SignedExchange(() => json(status, { code: -1003, msg: 'Too many requests.' }, { 'retry-after': '7' })).start();
      const client = clientOf(binance, exchange.url, KEYS);
      await expect(client.fetchTickers(['BNBBTC'])).rejects.toMatchObject({ kind, code: '-1003', retryAfterMs: 7_000 });
      await client.close();
      await exchange.stop();
    }
    exchange = await binanceExchange(KEYS.api_secret).start();
  });

  it('sends nothing more this minute once X-MBX-USED-WEIGHT-1M says the IP has no room for the next request', async () => {
    let used = '100';
    exchange = await new SignedExchange(() => json(200, fixture('binance', 'ticker-24hr.json'), { 'x-mbx-used-weight-1m': used })).start();
    const clock = manualClock(Date.UTC(2026, 0, 1, 12, 0, 15));
    const client = clientOf(binance, exchange.url, KEYS, { clock });
    await client.fetchTickers(['BNBBTC']);
    await client.fetchTickers(['BNBBTC']);
    used = '5921';
    await client.fetchTickers(['BNBBTC']);
    expect(exchange.asked).toHaveLength(3);
    // 45 s to the next minute, as the exchange counts it.
    await expect(client.fetchTickers(['BNBBTC'])).rejects.toMatchObject({ kind: 'rate_limited', retryAfterMs: 45_000, message: 'tickers: not sent, the exchange asked for a pause of 45 s' });
    expect(exchange.asked).toHaveLength(3);
    clock.advance(45_000);
    used = '2';
    await client.fetchTickers(['BNBBTC']);
    expect(exchange.asked).toHaveLength(4);
    await client.close();
  });

  it('narrows a watch list that names a symbol Binance does not list (-1121)', () => {
    const error = new ExchangeError('http_4xx', 'tickers', 'x', { status: 400, code: '-1121' });
    expect(binance.errors.refusesSymbols(error)).toBe(true);
    expect(binance.errors.refusesSymbols(new ExchangeError('http_4xx', 'tickers', 'x', { status: 400, code: '-1022' }))).toBe(false);
  });
});
