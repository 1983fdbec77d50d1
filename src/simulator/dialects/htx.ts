/**
 * HTX (Huobi): GET /v2/reference/currencies ({"code":200,"data":[...]}) and GET /market/tickers
 * ({"status":"ok","ts":ms,"data":[...]}), both public. Shapes from
 * https://www.htx.com/en-us/opend/newApiPages/ (Reference Data, Market Data) and the coins
 * recorded in ccxt (ts/src/test/static/currencies/htx.json): lower-case coins and per-coin chain
 * ids, `allowed`/`prohibited` statuses, ticker values as bare JSON numbers (written here from the
 * model's exact decimal text, never through a float). Errors: v1 {"status":"error","err-code",
 * "err-msg"}, v2 {"code":N,"message"}; over budget HTTP 429 with X-HB-RateLimit-* headers.
 */
import type { SimCoin, SimNetwork } from '../market/model';
import { networkId, placesOf } from './common';
import type { DialectRenderer, ModelTicker } from './types';
import { htxNotices } from './notices/htx';

const str = JSON.stringify;

/** HTX names a token's chain after protocol and coin (`trc20usdt`, `bep20usdt`, `usdterc20`). */
const PROTOCOL_PREFIX: Record<string, string> = { trc20usdt: 'trc20', bep20usdt: 'bep20', solusdt: 'sol', arc20usdt: 'arc20', optusdt: 'opt', cchainusdt: 'cchain' };

function chainId(coin: string, n: SimNetwork): string {
  const id = networkId('htx', n.network);
  const c = coin.toLowerCase();
  if (id === 'usdterc20') return c === 'usdt' ? id : c === 'eth' ? 'eth' : `${c}erc20`;
  const prefix = PROTOCOL_PREFIX[id];
  if (prefix !== undefined) return `${prefix}${c}`;
  // The coin's own name only for its native chain (the network named like the coin): HTX's chain
  // ids are unique within a coin, and BTC's BTC and LIGHTNING both read as `btc` otherwise.
  return id === n.network && n.contractAddress === '' && id.toLowerCase() === c ? c : id.toLowerCase();
}

function chain(coin: string, n: SimNetwork): Record<string, unknown> {
  return {
    chain: chainId(coin, n),
    displayName: n.name,
    fullName: coin,
    baseChain: n.network,
    baseChainProtocol: n.network,
    contractAddress: n.contractAddress,
    chainType: n.contractAddress === '' ? '0' : '1',
    isDynamic: false,
    numOfConfirmations: String(n.minConfirm),
    numOfFastConfirmations: String(n.minConfirm),
    depositStatus: n.depositEnable ? 'allowed' : 'prohibited',
    minDepositAmt: n.depositDust,
    withdrawStatus: n.withdrawEnable ? 'allowed' : 'prohibited',
    minWithdrawAmt: n.withdrawMin,
    withdrawPrecision: String(placesOf(n)),
    maxWithdrawAmt: '999999999999999999.000000000000000000',
    withdrawQuotaPerDay: '999999999999999999.000000000000000000',
    withdrawQuotaPerYear: null,
    withdrawQuotaTotal: null,
    withdrawFeeType: 'fixed',
    withdrawFeeExpandType: 'fixed',
    withdrawFeeExpandData: null,
    transactFeeWithdraw: n.withdrawFee,
    addrWithTag: n.withdrawTag,
    addrDepositTag: n.withdrawTag,
  };
}

function coin(c: SimCoin): Record<string, unknown> {
  return { currency: c.coin.toLowerCase(), assetType: '1', chains: c.networks.map((n) => chain(c.coin, n)), instStatus: 'normal' };
}

const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/** A decimal text as a bare JSON number (never through a double); anything else as JSON (set_ticker overrides). */
function num(value: unknown): string {
  return typeof value === 'string' && NUMBER.test(value) ? value : str(value);
}

function ticker(t: ModelTicker): string {
  return `{"symbol":${str(t.symbol.toLowerCase())},"open":${num(t.openPrice)},"high":${num(t.highPrice)},"low":${num(t.lowPrice)},`
    + `"close":${num(t.lastPrice)},"amount":${num(t.volume)},"vol":${num(t.quoteVolume)},"count":${str(t.count)},"bid":${num(t.bidPrice)},`
    + `"bidSize":${num(t.bidQty)},"ask":${num(t.askPrice)},"askSize":${num(t.askQty)}}`;
}

export const htx: DialectRenderer = {
  name: 'htx',
  notices: htxNotices,
  paths: { coins: '/v2/reference/currencies', tickers: '/market/tickers' },
  networkIds: (coin, n) => [chainId(coin, n)],
  weight: () => 1,
  coins: (coins) => ({ status: 200, body: { code: 200, data: coins.map(coin) } }),
  tickers: (req, source) => {
    const all = source.all();
    const ts = all[0]?.closeTime ?? req.now;
    return { status: 200, raw: true, body: `{"status":"ok","ts":${ts},"data":[${all.map(ticker).join(',')}]}` };
  },
  usage: (s) => ({
    'x-hb-ratelimit-requests-remain': String(Math.max(0, s.max - s.used)),
    'x-hb-ratelimit-requests-expire': String(s.windowMs),
  }),
  limited: (_s, _banned, now) => ({
    status: 429,
    body: { status: 'error', 'err-code': 'api-request-too-frequent', 'err-msg': 'Request too frequent. Please try again later.', data: null, ts: now },
  }),
  notFound: (req) => ({ status: 404, body: { status: 'error', 'err-code': 'invalid-parameter', 'err-msg': `invalid request path ${req.path}`, data: null } }),
};
