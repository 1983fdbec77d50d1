/**
 * KuCoin: GET /api/v3/currencies and GET /api/v1/market/allTickers, both public. Envelope
 * {"code":"200000","data":...}; tickers are data.ticker[] under one data.time. Shapes from
 * https://www.kucoin.com/docs-new/rest/spot-trading/market-data/get-all-currencies and
 * .../get-all-tickers, and the coins recorded in ccxt (ts/src/test/static/currencies/kucoin.json).
 * Over budget: HTTP 429 {"code":"429000","msg":"Too Many Requests"} with gw-ratelimit-* headers
 * (https://www.kucoin.com/docs-new/rate-limit).
 */
import type { SimCoin, SimNetwork } from '../market/model';
import { networkId, pair, placesOf } from './common';
import type { Answer, DialectRenderer, ModelTicker } from './types';
import { kucoinNotices } from './notices/kucoin';

const error = (status: number, code: string, msg: string): Answer => ({ status, body: { code, msg } });

function chain(n: SimNetwork): Record<string, unknown> {
  return {
    chainName: n.name,
    withdrawalMinSize: n.withdrawMin,
    depositMinSize: n.depositDust,
    withdrawFeeRate: '0',
    withdrawalMinFee: n.withdrawFee,
    isWithdrawEnabled: n.withdrawEnable,
    isDepositEnabled: n.depositEnable,
    confirms: n.minConfirm,
    preConfirms: n.minConfirm,
    contractAddress: n.contractAddress,
    withdrawPrecision: placesOf(n),
    maxWithdraw: null,
    maxDeposit: null,
    needTag: n.withdrawTag,
    chainId: networkId('kucoin', n.network),
  };
}

function coin(c: SimCoin): Record<string, unknown> {
  return {
    currency: c.coin,
    name: c.coin,
    fullName: c.name,
    precision: 8,
    confirms: null,
    contractAddress: null,
    isMarginEnabled: false,
    isDebitEnabled: false,
    chains: c.networks.map(chain),
  };
}

function ticker(t: ModelTicker): Record<string, unknown> {
  return {
    symbol: pair(t, '-'),
    symbolName: pair(t, '-'),
    buy: t.bidPrice,
    bestBidSize: t.bidQty,
    sell: t.askPrice,
    bestAskSize: t.askQty,
    changeRate: t.priceChangePercent,
    changePrice: t.priceChange,
    high: t.highPrice,
    low: t.lowPrice,
    vol: t.volume,
    volValue: t.quoteVolume,
    last: t.lastPrice,
    averagePrice: t.lastPrice,
    takerFeeRate: '0.001',
    makerFeeRate: '0.001',
    takerCoefficient: '1',
    makerCoefficient: '1',
  };
}

export const kucoin: DialectRenderer = {
  name: 'kucoin',
  notices: kucoinNotices,
  paths: { coins: '/api/v3/currencies', tickers: '/api/v1/market/allTickers' },
  networkIds: (_coin, n) => [networkId('kucoin', n.network)],
  weight: (endpoint) => (endpoint === 'coins' ? 3 : 15),
  coins: (coins) => ({ status: 200, body: { code: '200000', data: coins.map(coin) } }),
  tickers: (req, source) => {
    const all = source.all();
    const time = all[0]?.closeTime ?? req.now;
    return { status: 200, body: { code: '200000', data: { time, ticker: all.map(ticker) } } };
  },
  usage: (s) => ({
    'gw-ratelimit-limit': String(s.max),
    'gw-ratelimit-remaining': String(Math.max(0, s.max - s.used)),
    'gw-ratelimit-reset': String(s.retryAfterMs > 0 ? s.retryAfterMs : s.windowMs),
  }),
  limited: () => error(429, '429000', 'Too Many Requests'),
  notFound: () => error(404, '404', 'Not Found'),
};
