/**
 * OKX (v5): GET /api/v5/asset/currencies (signed) and GET /api/v5/market/tickers?instType=SPOT.
 * Envelope {"code":"0","msg":"","data":[...]}, every value a string but the booleans; one row per
 * coin and chain. Shapes from https://www.okx.com/docs-v5/en/#funding-account-rest-api-get-currencies
 * and #order-book-trading-market-data-get-tickers, and the coins recorded in ccxt
 * (ts/src/test/static/currencies/okx.json). Signing (#overview-rest-authentication): headers
 * OK-ACCESS-KEY, OK-ACCESS-PASSPHRASE, OK-ACCESS-TIMESTAMP (ISO 8601 with ms, within 30 s) and
 * OK-ACCESS-SIGN = base64(HMAC-SHA256(secret, timestamp + method + requestPath[?query] + body)).
 * Refusals are HTTP 401 {"msg","code"} with the 501xx codes of #error-code-rest-api-public;
 * over budget HTTP 429 code "50011".
 */
import type { SimCoin, SimNetwork } from '../market/model';
import { headerValues, hmacBase64, networkId, pair, placesOf, sameText } from './common';
import type { Answer, DialectRenderer, DialectRequest, ModelTicker, SimCredentials } from './types';
import { okxNotices } from './notices/okx';

const error = (status: number, code: string, msg: string): Answer => ({ status, body: { msg, code } });
const ok = (data: unknown): Answer => ({ status: 200, body: { code: '0', msg: '', data } });

const EXPIRY_MS = 30_000;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function row(c: SimCoin, n: SimNetwork): Record<string, unknown> {
  const id = networkId('okx', n.network);
  return {
    canDep: n.depositEnable,
    canInternal: true,
    canWd: n.withdrawEnable,
    ccy: c.coin,
    chain: `${c.coin}-${id}`,
    depQuotaFixed: '',
    depQuoteDailyLayer2: '',
    logoLink: '',
    mainNet: n.isDefault,
    maxFee: n.withdrawFee,
    maxFeeForCtAddr: n.withdrawFee,
    maxWd: '10000000',
    minDep: n.depositDust,
    minDepArrivalConfirm: String(n.minConfirm),
    minFee: n.withdrawFee,
    minFeeForCtAddr: n.withdrawFee,
    minWd: n.withdrawMin,
    minWdUnlockConfirm: String(n.minConfirm),
    name: c.name,
    needTag: n.withdrawTag,
    usedDepQuotaFixed: '',
    usedWdQuota: '0',
    wdQuota: '10000000',
    wdTickSz: String(placesOf(n)),
    ctAddr: n.contractAddress,
  };
}

function ticker(t: ModelTicker): Record<string, unknown> {
  return {
    instType: 'SPOT',
    instId: pair(t, '-'),
    last: t.lastPrice,
    lastSz: t.bidQty,
    askPx: t.askPrice,
    askSz: t.askQty,
    bidPx: t.bidPrice,
    bidSz: t.bidQty,
    open24h: t.openPrice,
    high24h: t.highPrice,
    low24h: t.lowPrice,
    volCcy24h: t.quoteVolume,
    vol24h: t.volume,
    ts: String(t.closeTime),
    sodUtc0: t.openPrice,
    sodUtc8: t.openPrice,
  };
}

function authorize(req: DialectRequest, credentials: SimCredentials | undefined): Answer | undefined {
  const { key, passphrase, sign, timestamp } = headerValues(req.headers, {
    key: 'OK-ACCESS-KEY', passphrase: 'OK-ACCESS-PASSPHRASE', sign: 'OK-ACCESS-SIGN', timestamp: 'OK-ACCESS-TIMESTAMP',
  });
  if (key === '') return error(401, '50103', 'Request header OK-ACCESS-KEY cannot be empty.');
  if (passphrase === '') return error(401, '50104', 'Request header OK-ACCESS-PASSPHRASE cannot be empty.');
  if (sign === '') return error(401, '50106', 'Request header OK-ACCESS-SIGN cannot be empty.');
  if (timestamp === '') return error(401, '50107', 'Request header OK-ACCESS-TIMESTAMP cannot be empty.');
  if (credentials === undefined || !sameText(key, credentials.apiKey)) return error(401, '50111', 'Invalid OK-ACCESS-KEY.');
  if (!ISO_MS.test(timestamp) || Number.isNaN(Date.parse(timestamp))) return error(401, '50112', 'Invalid OK-ACCESS-TIMESTAMP.');
  if (Math.abs(req.now - Date.parse(timestamp)) > EXPIRY_MS) return error(401, '50102', 'Timestamp request expired.');
  if (!sameText(passphrase, credentials.passphrase ?? '')) return error(401, '50105', 'Request header OK-ACCESS-PASSPHRASE incorrect.');
  const path = req.rawQuery === '' ? req.path : `${req.path}?${req.rawQuery}`;
  if (!sameText(sign, hmacBase64(credentials.apiSecret, `${timestamp}${req.method}${path}`))) return error(401, '50113', 'Invalid Sign.');
  return undefined;
}

export const okx: DialectRenderer = {
  name: 'okx',
  notices: okxNotices,
  paths: { coins: '/api/v5/asset/currencies', tickers: '/api/v5/market/tickers' },
  networkIds: (coin, n) => [`${coin}-${networkId('okx', n.network)}`],
  weight: () => 1,
  authorize: (endpoint, req, credentials) => (endpoint === 'coins' ? authorize(req, credentials) : undefined),
  coins: (coins) => ok(coins.flatMap((c) => c.networks.map((n) => row(c, n)))),
  tickers: (req, source) => {
    const instType = req.query.get('instType');
    if (instType === null || instType === '') return error(400, '50014', "Parameter instType can't be empty.");
    if (instType !== 'SPOT') return ok([]);
    return ok(source.all().map(ticker));
  },
  usage: () => ({}),
  limited: () => error(429, '50011', 'Too Many Requests'),
  notFound: () => error(404, '404', 'Not Found'),
};
