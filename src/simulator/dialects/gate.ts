/**
 * Gate (v4): GET /api/v4/spot/currencies and GET /api/v4/spot/tickers, public, bare arrays.
 * Shapes from https://www.gate.io/docs/developers/apiv4/#list-all-currencies-details (the current
 * shape with chains[]; the coin-level flags and `chain` are deprecated there) and
 * #retrieve-ticker-information. No fees, minimums or confirmations on this endpoint; the change
 * is a percentage with two decimals; no time. Errors {"label","message"}; over budget HTTP 429
 * TOO_MANY_REQUESTS with X-Gate-RateLimit-* headers (#rate-limit).
 */
import type { SimCoin, SimNetwork } from '../market/model';
import { networkId, pair, ratioToPercent, truncate } from './common';
import type { Answer, DialectRenderer, ModelTicker } from './types';

const error = (status: number, label: string, message: string): Answer => ({ status, body: { label, message } });

function chain(n: SimNetwork): Record<string, unknown> {
  return {
    name: networkId('gate', n.network),
    addr: n.contractAddress,
    withdraw_disabled: !n.withdrawEnable,
    withdraw_delayed: false,
    deposit_disabled: !n.depositEnable,
  };
}

function coin(c: SimCoin): Record<string, unknown> {
  const main = c.networks.find((n) => n.isDefault) ?? c.networks[0];
  return {
    currency: c.coin,
    name: c.name,
    delisted: false,
    // Deprecated coin-level flags, still sent: any network open.
    withdraw_disabled: !c.networks.some((n) => n.withdrawEnable),
    withdraw_delayed: false,
    deposit_disabled: !c.networks.some((n) => n.depositEnable),
    trade_disabled: false,
    fixed_rate: '',
    chain: main === undefined ? '' : networkId('gate', main.network),
    chains: c.networks.map(chain),
  };
}

function ticker(t: ModelTicker): Record<string, unknown> {
  return {
    currency_pair: pair(t, '_'),
    last: t.lastPrice,
    lowest_ask: t.askPrice,
    lowest_size: t.askQty,
    highest_bid: t.bidPrice,
    highest_size: t.bidQty,
    change_percentage: truncate(ratioToPercent(t.priceChangePercent), 2),
    base_volume: t.volume,
    quote_volume: t.quoteVolume,
    high_24h: t.highPrice,
    low_24h: t.lowPrice,
  };
}

export const gate: DialectRenderer = {
  name: 'gate',
  paths: { coins: '/api/v4/spot/currencies', tickers: '/api/v4/spot/tickers' },
  networkIds: (_coin, n) => [networkId('gate', n.network)],
  weight: () => 1,
  coins: (coins) => ({ status: 200, body: coins.map(coin) }),
  tickers: (req, source) => {
    const name = req.query.get('currency_pair');
    if (name === null || name === '') return { status: 200, body: source.all().map(ticker) };
    const t = name.includes('_') ? source.one(name.replace('_', '')) : undefined;
    return t === undefined ? error(400, 'INVALID_CURRENCY_PAIR', `Invalid currency pair ${name}`) : { status: 200, body: [ticker(t)] };
  },
  usage: (s) => ({
    'x-gate-ratelimit-requests-remain': String(Math.max(0, s.max - s.used)),
    'x-gate-ratelimit-limit': String(s.max),
    'x-gate-ratelimit-reset-timestamp': String(s.now + (s.retryAfterMs > 0 ? s.retryAfterMs : s.windowMs)),
  }),
  limited: () => error(429, 'TOO_MANY_REQUESTS', 'Request Rate limit Exceeded'),
  notFound: () => error(404, 'NOT_FOUND', 'Not Found'),
};
