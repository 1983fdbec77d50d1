/**
 * Binance: GET /sapi/v1/capital/config/getall (SIGNED, weight 10) and GET /api/v3/ticker/24hr
 * (weight 2 for one symbol, 80 for all: https://developers.binance.com/docs/binance-spot-api-docs/rest-api/market-data-endpoints).
 * Shapes from https://developers.binance.com/docs/wallet/capital/all-coins-info and the answers
 * recorded in ccxt (ts/src/test/static/currencies/binance.json); errors and rate limits from
 * https://developers.binance.com/docs/binance-spot-api-docs/errors and .../limits: every answer
 * carries X-MBX-USED-WEIGHT-1M; over budget 429 (code -1003) with Retry-After, then 418.
 */
import type { SimCoin, SimNetwork } from '../market/model';
import { networkId, ratioToPercent, retryAfterSeconds } from './common';
import { checkQuerySignature } from './query-signature';
import type { Answer, DialectRenderer, DialectRequest, ModelTicker, RateState } from './types';
import { binanceNotices } from './notices/binance';

const error = (status: number, code: number, msg: string): Answer => ({ status, body: { code, msg } });

function network(coin: string, n: SimNetwork): Record<string, unknown> {
  return {
    network: networkId('binance', n.network),
    coin,
    withdrawIntegerMultiple: n.withdrawIntegerMultiple.text,
    isDefault: n.isDefault,
    depositEnable: n.depositEnable,
    withdrawEnable: n.withdrawEnable,
    depositDesc: n.depositDesc ?? '',
    withdrawDesc: n.withdrawDesc ?? '',
    specialTips: '',
    specialWithdrawTips: '',
    name: n.name,
    resetAddressStatus: false,
    addressRegex: '',
    memoRegex: '',
    withdrawFee: n.withdrawFee,
    withdrawMin: n.withdrawMin,
    withdrawMax: '9999999999.99999999',
    ...(n.withdrawInternalMin !== null && { withdrawInternalMin: n.withdrawInternalMin }),
    depositDust: n.depositDust,
    // Recorded answers carry the confirmations as strings ("15"), the docs as numbers.
    minConfirm: String(n.minConfirm),
    unLockConfirm: '0',
    sameAddress: n.withdrawTag,
    estimatedArrivalTime: '1',
    busy: false,
    // Native coins carry no contract (as BTC on Binance).
    ...(n.contractAddress !== '' && { contractAddressUrl: n.contractAddressUrl, contractAddress: n.contractAddress }),
  };
}

export function binanceCoin(c: SimCoin): Record<string, unknown> {
  return {
    coin: c.coin,
    depositAllEnable: c.networks.every((n) => n.depositEnable),
    withdrawAllEnable: c.networks.every((n) => n.withdrawEnable),
    name: c.name,
    free: '0',
    locked: '0',
    freeze: '0',
    withdrawing: '0',
    ipoing: '0',
    ipoable: '0',
    storage: '0',
    isLegalMoney: false,
    trading: true,
    networkList: c.networks.map((n) => network(c.coin, n)),
  };
}

/** Binance sends the change in percent (`"-0.159"` is -0.159 %). */
export function binanceTicker(t: ModelTicker): Record<string, unknown> {
  return {
    symbol: t.symbol,
    priceChange: t.priceChange,
    priceChangePercent: ratioToPercent(t.priceChangePercent),
    weightedAvgPrice: t.lastPrice,
    prevClosePrice: t.openPrice,
    lastPrice: t.lastPrice,
    lastQty: t.bidQty,
    bidPrice: t.bidPrice,
    bidQty: t.bidQty,
    askPrice: t.askPrice,
    askQty: t.askQty,
    openPrice: t.openPrice,
    highPrice: t.highPrice,
    lowPrice: t.lowPrice,
    volume: t.volume,
    quoteVolume: t.quoteVolume,
    openTime: t.openTime,
    closeTime: t.closeTime,
    firstId: 1,
    lastId: t.count,
    count: t.count,
  };
}

/** `?symbol=X` -> one object; `?symbols=["A","B"]` -> array; none -> all; unknown -> 400 -1121. */
export function binanceTickers(req: DialectRequest, source: { all(): ModelTicker[]; one(s: string): ModelTicker | undefined }, render: (t: ModelTicker) => unknown): Answer {
  const symbol = req.query.get('symbol');
  const symbols = req.query.get('symbols');
  if (symbol !== null && symbols !== null) return error(400, -1128, 'Combination of optional parameters invalid.');
  if (symbol !== null) {
    const t = source.one(symbol);
    return t === undefined ? error(400, -1121, 'Invalid symbol.') : { status: 200, body: render(t) };
  }
  if (symbols !== null) {
    let names: unknown;
    try {
      names = JSON.parse(symbols);
    } catch {
      names = undefined;
    }
    if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) {
      return error(400, -1100, "Illegal characters found in parameter 'symbols'; legal range is '^\\[(\"[A-Z0-9-_.]{1,20}\"(,\"[A-Z0-9-_.]{1,20}\"){0,}){0,1}\\]$'.");
    }
    const found = (names as string[]).map((n) => source.one(n));
    if (found.some((t) => t === undefined)) return error(400, -1121, 'Invalid symbol.');
    return { status: 200, body: (found as ModelTicker[]).map(render) };
  }
  return { status: 200, body: source.all().map(render) };
}

export const binance: DialectRenderer = {
  name: 'binance',
  notices: binanceNotices,
  paths: { coins: '/sapi/v1/capital/config/getall', tickers: '/api/v3/ticker/24hr' },
  networkIds: (_coin, n) => [networkId('binance', n.network)],
  weight: (endpoint, query) => {
    if (endpoint === 'coins') return 10;
    if (query.has('symbol')) return 2;
    return query.has('symbols') ? 40 : 80;
  },
  authorize: (_endpoint, req, credentials) => {
    if (_endpoint !== 'coins') return undefined;
    const refused = checkQuerySignature(req, 'X-MBX-APIKEY', credentials);
    switch (refused?.refusal) {
      case undefined:
        return undefined;
      case 'noKey':
        return error(401, -2014, 'API-key format invalid.');
      case 'badKey':
        return error(401, -2015, 'Invalid API-key, IP, or permissions for action.');
      case 'missing':
        return error(400, -1102, `Mandatory parameter '${refused.param ?? ''}' was not sent, was empty/null, or malformed.`);
      case 'badSignature':
        return error(400, -1022, 'Signature for this request is not valid.');
      case 'stale':
        return error(400, -1021, 'Timestamp for this request is outside of the recvWindow.');
    }
  },
  coins: (coins) => ({ status: 200, body: coins.map(binanceCoin) }),
  tickers: (req, source) => binanceTickers(req, source, binanceTicker),
  usage: (s: RateState) => ({ 'x-mbx-used-weight': String(s.used), 'x-mbx-used-weight-1m': String(s.used) }),
  limited: (s, banned, now) => {
    const retry = { 'retry-after': retryAfterSeconds(s.retryAfterMs) };
    if (banned) {
      const msg = `Way too much request weight used; IP banned until ${now + s.retryAfterMs}. Please use WebSocket Streams for live updates to avoid bans.`;
      return { ...error(418, -1003, msg), headers: retry };
    }
    const msg = `Too much request weight used; current limit is ${s.max} request weight per ${s.windowMs} MILLISECOND. Please use WebSocket Streams for live updates to avoid polling the API.`;
    return { ...error(429, -1003, msg), headers: retry };
  },
  notFound: () => ({ status: 404, body: '', raw: true }),
};
