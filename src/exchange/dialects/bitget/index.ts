/**
 * The dialect `bitget`: Bitget's public spot API v2 (https://www.bitget.com/api-doc/spot/intro),
 * mapped onto the model as dialects.md section 2 says. No key: both requests are public.
 * Answers are `{"code":"00000","msg":"success","requestTime":<ms>,"data":[...]}` and every value
 * in them is a string, booleans too (`"true"`/`"false"`); an error is the same envelope with
 * another code, also inside an answer of status 200.
 */
import { difference, nonZero, rollingWindow, specSymbol, stepOfPlaces } from '../../derive';
import { booleanValue, integer, keyIn, optionalFlag, statusFlag, timeOf, type CoinSource, type TickerSource } from '../families/mapped-decode';
import { mappedDialect } from '../families/mapped';
import { dec, requiredDec, requiredStr, str, type Json } from '../../read';
import { chainsOf, envelopeList, readEnvelopeRefusal, type Envelope } from '../families/public';

export const BITGET_PATHS = { coins: '/api/v2/spot/public/coins', tickers: '/api/v2/spot/market/tickers' } as const;

/**
 * Bitget limits public requests per IP and per endpoint, in requests per second: coins 3/s,
 * tickers 20/s (the endpoints' "Rate limit" lines). As weights of one budget of 20 per
 * second: a tickers request costs 1, a coins request 7 (20/3, rounded up).
 */
export const BITGET_WEIGHTS = { coins: 7, tickers: 1 } as const;

/** `{"code":"00000","msg","requestTime","data"}`; `"429"` is Bitget's "too many requests" (sent with HTTP 429). */
const ENVELOPE: Envelope = { statusKey: 'code', success: (v) => v === '00000', codeKeys: ['code'], msgKeys: ['msg'], tooMany: ['429'], shape: '{"code": "00000", "data": [...]}' };

const DECIMAL_KEYS = {
  coins: ['withdrawFee', 'minWithdrawAmount', 'minDepositAmount', 'withdrawStep'],
  tickers: ['lastPr', 'open', 'high24h', 'low24h', 'bidPr', 'bidSz', 'askPr', 'askSz', 'baseVolume', 'quoteVolume', 'change24h'],
};

/** `withdrawStep` when it is not 0, else 10^-`withdrawMinScale` (dialects.md: bitget). */
function withdrawMultiple(n: Json): string | null {
  const step = dec(n, 'withdrawStep');
  if (step !== null && nonZero(step)) return step;
  return stepOfPlaces(n.withdrawMinScale);
}

const COINS: CoinSource = {
  ...chainsOf('coin', 'chain'),
  // Bitget gives no full name.
  name: () => null,
  network: (n, coin) => ({
    network: requiredStr(n, 'chain'),
    coin,
    name: null,
    isDefault: null,
    depositEnable: statusFlag(n, 'rechargeable', booleanValue),
    withdrawEnable: statusFlag(n, 'withdrawable', booleanValue),
    withdrawFee: dec(n, 'withdrawFee'),
    withdrawMin: dec(n, 'minWithdrawAmount'),
    withdrawInternalMin: null,
    withdrawIntegerMultiple: withdrawMultiple(n),
    minConfirm: integer(n, 'depositConfirm'),
    withdrawTag: optionalFlag(n, 'needTag', booleanValue),
    depositDust: dec(n, 'minDepositAmount'),
    contractAddress: str(n, 'contractAddress'),
    contractAddressUrl: null,
    depositDesc: null,
    withdrawDesc: null,
    // No contractAddressUrl: `browserUrl` is a transaction URL prefix, not the contract's page.
  }),
};

const TICKERS: TickerSource = {
  symbol: (o) => keyIn(o, 'symbol', specSymbol),
  ticker: (o, symbol) => {
    const lastPrice = requiredDec(o, 'lastPr');
    const openPrice = dec(o, 'open');
    return {
      symbol,
      priceChange: difference(lastPrice, openPrice),
      // Carried as sent, not recomputed: Bitget's `open` and `change24h` disagree (dialects.md).
      priceChangePercent: dec(o, 'change24h'),
      lastPrice,
      bidPrice: dec(o, 'bidPr'),
      bidQty: dec(o, 'bidSz'),
      askPrice: dec(o, 'askPr'),
      askQty: dec(o, 'askSz'),
      openPrice,
      highPrice: dec(o, 'high24h'),
      lowPrice: dec(o, 'low24h'),
      volume: dec(o, 'baseVolume'),
      quoteVolume: dec(o, 'quoteVolume'),
      ...rollingWindow(timeOf(o.ts)),
      count: null,
    };
  },
};

// `?symbol=` names one symbol: the whole list costs one request, and the watch list is picked out of it.
export const bitget = mappedDialect({
  name: 'bitget',
  baseUrl: 'https://api.bitget.com',
  paths: BITGET_PATHS,
  weights: BITGET_WEIGHTS,
  weightLimit: { max: 20, windowMs: 1_000 },
  decimalKeys: DECIMAL_KEYS,
  coinList: (body) => envelopeList(ENVELOPE, body, 'coins'),
  tickerList: (body) => ({ list: envelopeList(ENVELOPE, body, 'tickers'), time: null }),
  coins: COINS,
  tickers: TICKERS,
  readRefusal: readEnvelopeRefusal(ENVELOPE),
});
