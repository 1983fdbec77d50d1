/**
 * Bybit (v5): GET /v5/asset/coin/query-info (signed) and GET /v5/market/tickers?category=spot.
 * Envelope {"retCode":0,"retMsg":"OK","result":{...},"retExtInfo":{},"time":ms}, all values
 * strings. Shapes from https://bybit-exchange.github.io/docs/v5/asset/coin-info and
 * .../v5/market/tickers, and the coins recorded in ccxt (ts/src/test/static/currencies/bybit.json).
 * Signing (https://bybit-exchange.github.io/docs/v5/guide#authentication): headers X-BAPI-API-KEY,
 * X-BAPI-TIMESTAMP (ms), X-BAPI-RECV-WINDOW (default 5000), X-BAPI-SIGN = hex(HMAC-SHA256(secret,
 * timestamp + key + recvWindow + queryString)). Refusals: 401 retCode 10003 (key), 401 10004
 * (sign), HTTP 200 10002 (timestamp); parameter errors HTTP 200 10001. Over budget retCode 10006
 * with X-Bapi-Limit-* headers; an IP over the hard limit gets HTTP 403 (#rate-limit).
 */
import type { SimCoin, SimNetwork } from '../market/model';
import { headerValues, hmacHex, networkId, placesOf, sameText } from './common';
import type { Answer, DialectRenderer, DialectRequest, ModelTicker, SimCredentials } from './types';
import { bybitNotices } from './notices/bybit';

const DEFAULT_RECV_WINDOW = 5000;

const reply = (status: number, retCode: number, retMsg: string, result: unknown, now: number): Answer => ({
  status,
  body: { retCode, retMsg, result, retExtInfo: {}, time: now },
});

function chain(n: SimNetwork): Record<string, unknown> {
  return {
    chainType: n.name,
    confirmation: String(n.minConfirm),
    withdrawFee: n.withdrawFee,
    depositMin: n.depositDust,
    withdrawMin: n.withdrawMin,
    chain: networkId('bybit', n.network),
    chainDeposit: n.depositEnable ? '1' : '0',
    chainWithdraw: n.withdrawEnable ? '1' : '0',
    minAccuracy: String(placesOf(n)),
    withdrawPercentageFee: '0',
    contractAddress: n.contractAddress,
  };
}

function coin(c: SimCoin): Record<string, unknown> {
  return { name: c.coin, coin: c.coin, remainAmount: '10000000', chains: c.networks.map(chain) };
}

function ticker(t: ModelTicker): Record<string, unknown> {
  return {
    symbol: t.symbol,
    bid1Price: t.bidPrice,
    bid1Size: t.bidQty,
    ask1Price: t.askPrice,
    ask1Size: t.askQty,
    lastPrice: t.lastPrice,
    prevPrice24h: t.openPrice,
    price24hPcnt: t.priceChangePercent,
    highPrice24h: t.highPrice,
    lowPrice24h: t.lowPrice,
    turnover24h: t.quoteVolume,
    volume24h: t.volume,
    usdIndexPrice: t.lastPrice,
  };
}

function authorize(req: DialectRequest, credentials: SimCredentials | undefined): Answer | undefined {
  const { key, timestamp, sign, recvWindow } = headerValues(req.headers, {
    key: 'X-BAPI-API-KEY', timestamp: 'X-BAPI-TIMESTAMP', sign: 'X-BAPI-SIGN', recvWindow: 'X-BAPI-RECV-WINDOW',
  });
  if (key === '' || credentials === undefined || !sameText(key, credentials.apiKey)) return reply(401, 10003, 'API key is invalid.', {}, req.now);
  const window = recvWindow === '' ? DEFAULT_RECV_WINDOW : Number(recvWindow);
  const ts = Number(timestamp);
  if (timestamp === '' || !Number.isInteger(ts) || !(window > 0) || ts > req.now + 1000 || ts < req.now - window) {
    const msg = `invalid request, please check your server timestamp or recv_window param. req_timestamp[${timestamp}],server_timestamp[${req.now}],recv_window[${recvWindow === '' ? DEFAULT_RECV_WINDOW : recvWindow}]`;
    return reply(200, 10002, msg, {}, req.now);
  }
  const origin = `${timestamp}${key}${recvWindow}${req.rawQuery}`;
  if (sign === '' || !sameText(sign, hmacHex(credentials.apiSecret, origin))) {
    return reply(401, 10004, `error sign! origin_string[${origin}]`, {}, req.now);
  }
  return undefined;
}

export const bybit: DialectRenderer = {
  name: 'bybit',
  notices: bybitNotices,
  paths: { coins: '/v5/asset/coin/query-info', tickers: '/v5/market/tickers' },
  networkIds: (_coin, n) => [networkId('bybit', n.network)],
  weight: () => 1,
  authorize: (endpoint, req, credentials) => (endpoint === 'coins' ? authorize(req, credentials) : undefined),
  coins: (coins, now) => reply(200, 0, 'success', { rows: coins.map(coin) }, now),
  tickers: (req, source) => {
    const category = req.query.get('category');
    if (category !== 'spot') return reply(200, 10001, 'Illegal category', {}, req.now);
    const symbol = req.query.get('symbol');
    const list = symbol === null ? source.all() : [source.one(symbol)].filter((t): t is ModelTicker => t !== undefined);
    if (symbol !== null && list.length === 0) return reply(200, 10001, 'Not supported symbols', {}, req.now);
    return reply(200, 0, 'OK', { category: 'spot', list: list.map(ticker) }, req.now);
  },
  usage: (s) => ({
    'x-bapi-limit-status': String(Math.max(0, s.max - s.used)),
    'x-bapi-limit': String(s.max),
    'x-bapi-limit-reset-timestamp': String(s.now + (s.retryAfterMs > 0 ? s.retryAfterMs : s.windowMs)),
  }),
  limited: (_s, banned, now) =>
    banned ? { status: 403, body: 'access too frequent', raw: true, headers: { 'content-type': 'text/plain; charset=utf-8' } }
      : reply(200, 10006, 'Too many visits. Exceeded the API Rate Limit.', {}, now),
  notFound: (req) => reply(404, 10001, `path not found: ${req.path}`, {}, req.now),
};
