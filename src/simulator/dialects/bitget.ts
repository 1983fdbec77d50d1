/**
 * Bitget (v2): GET /api/v2/spot/public/coins and GET /api/v2/spot/market/tickers, both public.
 * Envelope {"code":"00000","msg":"success","requestTime":ms,"data":[...]}; every value a string,
 * booleans too. Shapes from https://www.bitget.com/api-doc/spot/market/Get-Coin-List and
 * .../Get-Tickers, and the coins recorded in ccxt (ts/src/test/static/currencies/bitget.json).
 * Errors: {"code":"40034","msg":"Parameter does not exist",...}; over budget HTTP 429 with code
 * "429" (https://www.bitget.com/api-doc/common/error-code/restapi).
 */
import type { SimCoin, SimNetwork } from '../market/model';
import { networkId, placesOf, plainMultiple, retryAfterSeconds } from './common';
import type { Answer, DialectRenderer, ModelTicker } from './types';
import { bitgetNotices } from './notices/bitget';

const envelope = (now: number, data: unknown): unknown => ({ code: '00000', msg: 'success', requestTime: now, data });
const error = (status: number, code: string, msg: string, now: number): Answer => ({ status, body: { code, msg, requestTime: now, data: null } });

function chain(n: SimNetwork): Record<string, unknown> {
  const multiple = n.withdrawIntegerMultiple.text;
  const powerOfTen = plainMultiple(n) === multiple || Number(multiple) === Number(plainMultiple(n));
  return {
    chain: networkId('bitget', n.network),
    needTag: String(n.withdrawTag),
    withdrawable: String(n.withdrawEnable),
    rechargeable: String(n.depositEnable),
    withdrawFee: n.withdrawFee,
    extraWithdrawFee: '0',
    depositConfirm: String(n.minConfirm),
    withdrawConfirm: String(n.minConfirm),
    minDepositAmount: n.depositDust,
    minWithdrawAmount: n.withdrawMin,
    browserUrl: '',
    contractAddress: n.contractAddress === '' ? null : n.contractAddress,
    // A step that is not a power of ten is sent as withdrawStep; otherwise "0" and the scale.
    withdrawStep: powerOfTen ? '0' : multiple,
    withdrawMinScale: String(placesOf(n)),
    congestion: 'normal',
  };
}

function coin(c: SimCoin, index: number): Record<string, unknown> {
  return { coinId: String(index + 1), coin: c.coin, transfer: 'true', chains: c.networks.map(chain), areaCoin: 'no' };
}

function ticker(t: ModelTicker): Record<string, unknown> {
  return {
    symbol: t.symbol,
    high24h: t.highPrice,
    open: t.openPrice,
    lastPr: t.lastPrice,
    low24h: t.lowPrice,
    quoteVolume: t.quoteVolume,
    baseVolume: t.volume,
    usdtVolume: t.quoteVolume,
    bidPr: t.bidPrice,
    askPr: t.askPrice,
    bidSz: t.bidQty,
    askSz: t.askQty,
    openUtc: t.openPrice,
    ts: String(t.closeTime),
    changeUtc24h: t.priceChangePercent,
    change24h: t.priceChangePercent,
  };
}

export const bitget: DialectRenderer = {
  name: 'bitget',
  notices: bitgetNotices,
  paths: { coins: '/api/v2/spot/public/coins', tickers: '/api/v2/spot/market/tickers' },
  networkIds: (_coin, n) => [networkId('bitget', n.network)],
  weight: () => 1,
  coins: (coins, now) => ({ status: 200, body: envelope(now, coins.map(coin)) }),
  tickers: (req, source) => {
    const symbol = req.query.get('symbol');
    if (symbol === null || symbol === '') return { status: 200, body: envelope(req.now, source.all().map(ticker)) };
    const t = source.one(symbol);
    return t === undefined
      ? error(400, '40034', 'Parameter does not exist', req.now)
      : { status: 200, body: envelope(req.now, [ticker(t)]) };
  },
  usage: (s) => ({ 'x-mbx-used-remain-limit': String(Math.max(0, s.max - s.used)) }),
  limited: (s, _banned, now) => ({
    ...error(429, '429', 'Too Many Requests', now),
    headers: { 'retry-after': retryAfterSeconds(s.retryAfterMs) },
  }),
  notFound: (req) => error(404, '40404', 'Request URL NOT FOUND', req.now),
};
