import { createHmac } from 'node:crypto';
import { fixture, json, SignedExchange, type Asked } from './signed-exchange';

/**
 * The four signed exchanges on loopback, each answering as its own documentation says (paths,
 * key, timestamp window, signature, refusal bodies) with its recorded answers: written from the
 * docs, never from the dialect under test. Used by the dialect tests and by `once --json`.
 */

export const KEYS = {
  binance: { api_key: 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A', api_secret: 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j' },
  mexc: { api_key: 'mx0vgl-key', api_secret: 'mexc-secret' },
  okx: { api_key: 'okx-key', api_secret: 'okx-secret', passphrase: 'okx-pass' },
  bybit: { api_key: 'bybit-key', api_secret: 'bybit-secret' },
};

/** Binance as its docs describe it: the key, then the timestamp within recvWindow of its clock, then the signature. */
export function binanceExchange(secret: string, aheadMs = 0): SignedExchange {
  return new SignedExchange(({ path, headers }: Asked, now) => {
    const [route, query = ''] = path.split('?') as [string, string?];
    if (route === '/api/v3/time') return json(200, { serverTime: now });
    if (route === '/api/v3/ticker/24hr') return json(200, fixture('binance', 'ticker-24hr.json'));
    if (route !== '/sapi/v1/capital/config/getall') return json(404, '');
    if (headers['x-mbx-apikey'] !== KEYS.binance.api_key) return json(401, { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
    const params = new URLSearchParams(query);
    const ts = Number(params.get('timestamp'));
    const recvWindow = Number(params.get('recvWindow') ?? '5000');
    if (!(ts < now + 1000 && now - ts <= recvWindow)) return json(400, { code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' });
    const signed = query.slice(0, query.lastIndexOf('&signature='));
    if (params.get('signature') !== createHmac('sha256', secret).update(signed).digest('hex')) return json(400, { code: -1022, msg: 'Signature for this request is not valid.' });
    return json(200, fixture('binance', 'getall.json'));
  }, aheadMs);
}

export function mexcExchange(secret: string, aheadMs = 0): SignedExchange {
  return new SignedExchange(({ path, headers }: Asked, now) => {
    const [route, query = ''] = path.split('?') as [string, string?];
    if (route === '/api/v3/time') return json(200, { serverTime: now });
    if (route === '/api/v3/ticker/24hr') return json(200, fixture('mexc', 'ticker-24hr.json'));
    if (route !== '/api/v3/capital/config/getall') return json(404, '');
    if (headers['x-mexc-apikey'] !== KEYS.mexc.api_key) return json(400, { code: 10072, msg: 'Api key info invalid' });
    const params = new URLSearchParams(query);
    const ts = Number(params.get('timestamp'));
    if (!(ts < now + 1000 && now - ts <= Number(params.get('recvWindow') ?? '5000'))) return json(400, { code: 700003, msg: 'Timestamp for this request is outside of the recvWindow.' });
    const signed = query.slice(0, query.lastIndexOf('&signature='));
    if (params.get('signature') !== createHmac('sha256', secret).update(signed).digest('hex')) return json(400, { code: 700002, msg: 'Signature for this request is not valid.' });
    return json(200, fixture('mexc', 'getall.json'));
  }, aheadMs);
}

/** OKX as its REST authentication docs describe it (401 with its codes; 30 s of its clock). */
export function okxExchange(keys: typeof KEYS.okx, aheadMs = 0): SignedExchange {
  return new SignedExchange(({ path, headers }: Asked, now) => {
    if (path === '/api/v5/public/time') return json(200, { code: '0', msg: '', data: [{ ts: String(now) }] });
    if (path === '/api/v5/market/tickers?instType=SPOT') return json(200, fixture('okx', 'tickers.json'));
    if (path !== '/api/v5/asset/currencies') return json(404, '');
    const ts = String(headers['ok-access-timestamp'] ?? '');
    if (headers['ok-access-key'] !== keys.api_key) return json(401, { msg: 'Invalid OK-ACCESS-KEY', code: '50111' });
    if (!(Math.abs(Date.parse(ts) - now) <= 30_000)) return json(401, { msg: 'Timestamp request expired', code: '50102' });
    if (headers['ok-access-passphrase'] !== keys.passphrase) return json(401, { msg: 'OK-ACCESS-PASSPHRASE incorrect', code: '50105' });
    const sign = createHmac('sha256', keys.api_secret).update(`${ts}GET${path}`).digest('base64');
    if (headers['ok-access-sign'] !== sign) return json(401, { msg: 'Invalid Sign', code: '50113' });
    return json(200, fixture('okx', 'currencies.json'));
  }, aheadMs);
}

/** Bybit as its v5 docs describe it: 10003 bad key (401), 10002 in a 200 answer for the timestamp, 10004 bad sign (401). */
export function bybitExchange(secret: string, aheadMs = 0): SignedExchange {
  return new SignedExchange(({ path, headers }: Asked, now) => {
    if (path === '/v5/market/time') return json(200, { retCode: 0, retMsg: 'OK', result: { timeSecond: String(Math.floor(now / 1000)) }, retExtInfo: {}, time: now });
    if (path === '/v5/market/tickers?category=spot') return json(200, fixture('bybit', 'tickers.json'));
    if (path !== '/v5/asset/coin/query-info') return json(404, '');
    const ts = String(headers['x-bapi-timestamp']);
    const recv = String(headers['x-bapi-recv-window'] ?? '5000');
    if (headers['x-bapi-api-key'] !== KEYS.bybit.api_key) return json(401, { retCode: 10003, retMsg: 'API key is invalid.', result: {}, retExtInfo: {}, time: now });
    if (!(now - Number(recv) <= Number(ts) && Number(ts) < now + 1000)) {
      return json(200, { retCode: 10002, retMsg: 'invalid request, please check your server timestamp or recv_window param', result: {}, retExtInfo: {}, time: now });
    }
    const origin = `${ts}${KEYS.bybit.api_key}${recv}`;
    if (headers['x-bapi-sign'] !== createHmac('sha256', secret).update(origin).digest('hex')) {
      return json(401, { retCode: 10004, retMsg: `error sign! origin_string[${origin}]`, result: {}, retExtInfo: {}, time: now });
    }
    return json(200, fixture('bybit', 'coin-query-info.json'));
  }, aheadMs);
}
