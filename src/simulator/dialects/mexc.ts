/**
 * MEXC: GET /api/v3/capital/config/getall (SIGNED as Binance, key header X-MEXC-APIKEY) and
 * GET /api/v3/ticker/24hr. Shapes from https://mexcdevelop.github.io/apidocs/spot_v3_en/ (Wallet
 * Endpoints, Market Data) and the coins recorded in ccxt (ts/src/test/static/currencies/mexc.json):
 * no coin-level flags, `netWork` beside a long `network`, `contract`, minConfirm a string, the
 * change already a ratio, `count` null. Refusals are HTTP 400 with MEXC's codes; over budget
 * 429 (https://mexcdevelop.github.io/apidocs/spot_v3_en/#limits).
 */
import type { SimCoin, SimNetwork } from '../market/model';
import { networkId, placesOf, retryAfterSeconds } from './common';
import { binanceTicker, binanceTickers } from './binance';
import { checkQuerySignature } from './query-signature';
import type { Answer, DialectRenderer, ModelTicker } from './types';

const error = (status: number, code: number, msg: string): Answer => ({ status, body: { code, msg } });

/** MEXC's long network names for the chains its newer `netWork` id shortens. */
const LONG_NAMES: Record<string, string> = {
  ETH: 'Ethereum(ERC20)',
  BSC: 'BNB Smart Chain(BEP20)',
  TRX: 'Tron(TRC20)',
  ARB: 'Arbitrum One(ARB)',
  OP: 'Optimism(OP)',
};

function network(coin: string, n: SimNetwork): Record<string, unknown> {
  const id = networkId('mexc', n.network);
  return {
    coin,
    depositDesc: n.depositDesc,
    depositEnable: n.depositEnable,
    minConfirm: String(n.minConfirm),
    depositPreConfirms: null,
    name: n.name,
    network: LONG_NAMES[id] ?? id,
    withdrawEnable: n.withdrawEnable,
    withdrawFee: n.withdrawFee,
    // Recorded answers send the withdrawal precision in places ("8"), sometimes null.
    withdrawIntegerMultiple: String(placesOf(n)),
    withdrawMax: '9999999999',
    withdrawMin: n.withdrawMin,
    sameAddress: n.withdrawTag,
    contract: n.contractAddress,
    withdrawTips: null,
    depositTips: null,
    netWork: id,
  };
}

function coin(c: SimCoin): Record<string, unknown> {
  return { coin: c.coin, name: c.name, networkList: c.networks.map((n) => network(c.coin, n)) };
}

/** Binance's ticker without its trade ids and average, the change as a ratio, `count` null (MEXC sends no count). */
function ticker(t: ModelTicker): Record<string, unknown> {
  const { weightedAvgPrice: _avg, firstId: _first, lastId: _last, ...rest } = binanceTicker(t);
  return { ...rest, priceChangePercent: t.priceChangePercent, lastQty: '', count: null };
}

export const mexc: DialectRenderer = {
  name: 'mexc',
  paths: { coins: '/api/v3/capital/config/getall', tickers: '/api/v3/ticker/24hr' },
  networkIds: (_coin, n) => {
    const id = networkId('mexc', n.network);
    return [id, LONG_NAMES[id] ?? id];
  },
  weight: (endpoint, query) => (endpoint === 'coins' ? 10 : query.has('symbol') ? 1 : 40),
  authorize: (endpoint, req, credentials) => {
    if (endpoint !== 'coins') return undefined;
    const refused = checkQuerySignature(req, 'X-MEXC-APIKEY', credentials);
    switch (refused?.refusal) {
      case undefined:
        return undefined;
      case 'noKey':
        return error(400, 700001, 'API-key format invalid.');
      case 'badKey':
        return error(400, 10072, 'Api key info invalid');
      case 'missing':
        return refused.param === 'timestamp'
          ? error(400, 700003, 'Timestamp for this request is outside of the recvWindow.')
          : error(400, 700002, 'Signature for this request is not valid.');
      case 'badSignature':
        return error(400, 700002, 'Signature for this request is not valid.');
      case 'stale':
        return error(400, 700003, 'Timestamp for this request is outside of the recvWindow.');
    }
  },
  coins: (coins) => ({ status: 200, body: coins.map(coin) }),
  tickers: (req, source) => binanceTickers(req, source, ticker),
  usage: () => ({}),
  limited: (s, banned) => ({
    ...error(banned ? 418 : 429, 429, banned ? 'Way too many requests; IP banned.' : 'Too Many Requests'),
    headers: { 'retry-after': retryAfterSeconds(s.retryAfterMs) },
  }),
  notFound: () => error(404, 404, 'Not Found'),
};
