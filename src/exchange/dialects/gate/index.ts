/**
 * The dialect `gate`: Gate's public spot API v4 (https://www.gate.io/docs/developers/apiv4/),
 * mapped onto the model as dialects.md section 2 says. No key: both requests are public.
 * Answers are bare arrays; an error is `{"label":"...","message":"..."}`. The public currency
 * list carries no fees, minimums or confirmations (they are on the signed
 * `/wallet/withdraw_status`, not read here): those fields are null.
 */
import { Refused } from '../../dialect';
import { percentAsRatio, specSymbol } from '../../derive';
import { booleanValue, keyIn, statusFlag, type CoinSource, type TickerSource } from '../families/mapped-decode';
import { mappedDialect } from '../families/mapped';
import { dec, isObject, requiredDec, requiredStr, ShapeError, shapeOf, str } from '../../read';
import { chainsOf, envelopeRefusal, readEnvelopeRefusal, type Envelope } from '../families/public';

export const GATE_PATHS = { coins: '/api/v4/spot/currencies', tickers: '/api/v4/spot/tickers' } as const;

/**
 * Gate limits its public endpoints to 200 requests per 10 s per endpoint and IP: each
 * request costs 1, and the default budget of 200 per 10 s counts as Gate does.
 */
export const GATE_WEIGHTS = { coins: 1, tickers: 1 } as const;

/**
 * Gate's error body `{"label","message"}` (there is no envelope of success: answers are bare
 * arrays); `TOO_MANY_REQUESTS` comes with HTTP 429.
 */
const ERRORS: Envelope = { statusKey: 'label', success: () => false, codeKeys: ['label'], msgKeys: ['message'], tooMany: ['TOO_MANY_REQUESTS'], shape: '[...]' };

const DECIMAL_KEYS = {
  // No decimals in the coins but `fixed_rate` (ignored): kept as its text all the same.
  coins: ['fixed_rate'],
  tickers: ['last', 'lowest_ask', 'lowest_size', 'highest_bid', 'highest_size', 'change_percentage', 'base_volume', 'quote_volume', 'high_24h', 'low_24h'],
};

/** The bare array of a Gate answer; an error body is Gate refusing, whatever the HTTP status. */
function listOf(body: unknown, what: string): unknown[] {
  if (Array.isArray(body)) return body;
  if (isObject(body) && typeof body.label === 'string') throw new Refused(envelopeRefusal(ERRORS, body));
  throw new ShapeError(`${what}: expected a list, got ${shapeOf(body)}`);
}

/** `deposit_disabled: false` is open: the flag is inverted. */
function notDisabled(v: unknown): boolean | undefined {
  const disabled = booleanValue(v);
  return disabled === undefined ? undefined : !disabled;
}

const COINS: CoinSource = {
  ...chainsOf('currency', 'name'),
  name: (o) => str(o, 'name'),
  // The coin-level flags and `chain` are deprecated (Gate docs): the flags are derived from `chains[]`.
  network: (n, coin, o) => {
    const network = requiredStr(n, 'name');
    return {
      network,
      coin,
      name: null,
      // The coin's main chain; without `chain` the exchange does not say (null, dialects.md).
      isDefault: typeof o.chain === 'string' && o.chain !== '' ? o.chain === network : null,
      depositEnable: statusFlag(n, 'deposit_disabled', notDisabled),
      // `withdraw_delayed` is ignored: withdrawals still go, later.
      withdrawEnable: statusFlag(n, 'withdraw_disabled', notDisabled),
      withdrawFee: null,
      withdrawMin: null,
      withdrawInternalMin: null,
      withdrawIntegerMultiple: null,
      minConfirm: null,
      withdrawTag: null,
      depositDust: null,
      contractAddress: str(n, 'addr'),
      contractAddressUrl: null,
      depositDesc: null,
      withdrawDesc: null,
    };
  },
};

const TICKERS: TickerSource = {
  symbol: (o) => keyIn(o, 'currency_pair', specSymbol),
  ticker: (o, symbol) => ({
    symbol,
    // Gate sends a 2-decimal percentage only: no exact open price or change (rule 3).
    priceChange: null,
    priceChangePercent: percentAsRatio(dec(o, 'change_percentage')),
    lastPrice: requiredDec(o, 'last'),
    bidPrice: dec(o, 'highest_bid'),
    bidQty: dec(o, 'highest_size'),
    askPrice: dec(o, 'lowest_ask'),
    askQty: dec(o, 'lowest_size'),
    openPrice: null,
    highPrice: dec(o, 'high_24h'),
    lowPrice: dec(o, 'low_24h'),
    volume: dec(o, 'base_volume'),
    quoteVolume: dec(o, 'quote_volume'),
    // Gate sends no time.
    openTime: null,
    closeTime: null,
    count: null,
  }),
};

// `?currency_pair=` names one pair: the whole list costs one request, and the watch list is picked out of it.
export const gate = mappedDialect({
  name: 'gate',
  baseUrl: 'https://api.gateio.ws',
  paths: GATE_PATHS,
  weights: GATE_WEIGHTS,
  weightLimit: { max: 200, windowMs: 10_000 },
  decimalKeys: DECIMAL_KEYS,
  coinList: (body) => listOf(body, 'coins'),
  tickerList: (body) => ({ list: listOf(body, 'tickers'), time: null }),
  coins: COINS,
  tickers: TICKERS,
  readRefusal: readEnvelopeRefusal(ERRORS),
});
