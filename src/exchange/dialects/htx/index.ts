/**
 * The dialect `htx`: HTX's (Huobi's) public spot API (https://huobiapi.github.io/docs/spot/v1/en/),
 * mapped onto the model as dialects.md section 2 says. No key: both requests are public. The
 * two answers come in two envelopes: the currencies `{"code":200,"data":[...]}` (an error
 * `{"code":<n>,"message"}`), the tickers `{"status":"ok","ts":<ms>,"data":[...]}` (an error
 * `{"status":"error","err-code","err-msg"}`), also inside answers of status 200. Ticker
 * values are JSON numbers written by Java (`8988.0`, `2.3822168242201668E8`): their text is
 * kept (rule 1).
 */
import { changeRatio, difference, rollingWindow, specSymbol, stepOfPlaces } from '../../derive';
import { booleanValue, integer, keyIn, optionalFlag, statusFlag, timeOf, type CoinSource, type TickerSource } from '../families/mapped-decode';
import { mappedDialect } from '../families/mapped';
import { dec, isObject, requiredDec, requiredStr, str, type Json } from '../../read';
import { chainsOf, envelopeList, readEnvelopeRefusal, type Envelope } from '../families/public';

export const HTX_PATHS = { coins: '/v2/reference/currencies', tickers: '/market/tickers' } as const;

/**
 * HTX limits requests per IP and per interface, without weights: each request costs 1
 * against the default budget below.
 */
export const HTX_WEIGHTS = { coins: 1, tickers: 1 } as const;

/**
 * HTX's "too many requests" (`{"status":"error","err-code":"api-request-too-frequent","err-msg":
 * "Request too frequent. Please try again later."}`, with or without HTTP 429); `429` for a v2
 * body that carries the status as its code.
 */
const TOO_MANY = ['api-request-too-frequent', '429'];

/** The reference data's envelope (`code` is 200, sent as a number or, in some recorded answers, as a string). */
const REFERENCE: Envelope = {
  statusKey: 'code', success: (v) => v === 200 || v === '200', codeKeys: ['code'], msgKeys: ['message', 'msg'], tooMany: TOO_MANY, shape: '{"code": 200, "data": [...]}',
};

/** The market data's envelope. */
const MARKET: Envelope = {
  statusKey: 'status', success: (v) => v === 'ok', codeKeys: ['err-code'], msgKeys: ['err-msg'], tooMany: TOO_MANY, shape: '{"status": "ok", "data": [...]}',
};

/** Either envelope's error body, for an answer of status other than 2xx. */
const ANY_ERROR: Envelope = { ...MARKET, codeKeys: ['err-code', 'code'], msgKeys: ['err-msg', 'message', 'msg'] };

const DECIMAL_KEYS = {
  coins: ['transactFeeWithdraw', 'minTransactFeeWithdraw', 'minWithdrawAmt', 'minDepositAmt'],
  tickers: ['open', 'close', 'high', 'low', 'amount', 'vol', 'bid', 'bidSize', 'ask', 'askSize'],
};

/** `"allowed"` is open, `"prohibited"` closed; any other value is not guessed. */
function allowed(v: unknown): boolean | undefined {
  if (v === 'allowed') return true;
  if (v === 'prohibited') return false;
  return undefined;
}

/** The fee of the fee type: `fixed` its fee, `circulated` its least fee, `ratio` (a share of the amount) none. */
function withdrawFee(n: Json): string | null {
  if (n.withdrawFeeType === 'fixed') return dec(n, 'transactFeeWithdraw');
  if (n.withdrawFeeType === 'circulated') return dec(n, 'minTransactFeeWithdraw');
  return null;
}

const COINS: CoinSource = {
  ...chainsOf('currency', 'chain'),
  name: () => null,
  // `instStatus` is ignored: the coin's flags are derived from its chains.
  network: (n, coin) => ({
    // Per-coin ids (`trc20usdt`, `usdterc20`); `displayName` is the chain's name.
    network: requiredStr(n, 'chain'),
    coin,
    name: str(n, 'displayName'),
    isDefault: null,
    depositEnable: statusFlag(n, 'depositStatus', allowed),
    withdrawEnable: statusFlag(n, 'withdrawStatus', allowed),
    withdrawFee: withdrawFee(n),
    withdrawMin: dec(n, 'minWithdrawAmt'),
    withdrawInternalMin: null,
    withdrawIntegerMultiple: stepOfPlaces(n.withdrawPrecision),
    minConfirm: integer(n, 'numOfConfirmations'),
    withdrawTag: optionalFlag(n, 'addrWithTag', booleanValue),
    depositDust: dec(n, 'minDepositAmt'),
    // dialects.md: not provided (some answers carry one; the contract leaves it out).
    contractAddress: null,
    contractAddressUrl: null,
    depositDesc: null,
    withdrawDesc: null,
  }),
};

const TICKERS: TickerSource = {
  symbol: (o) => keyIn(o, 'symbol', specSymbol),
  ticker: (o, symbol, ts) => {
    const close = requiredDec(o, 'close');
    const open = dec(o, 'open');
    return {
      symbol,
      priceChange: difference(close, open),
      priceChangePercent: changeRatio(close, open),
      lastPrice: close,
      bidPrice: dec(o, 'bid'),
      bidQty: dec(o, 'bidSize'),
      askPrice: dec(o, 'ask'),
      askQty: dec(o, 'askSize'),
      openPrice: open,
      highPrice: dec(o, 'high'),
      lowPrice: dec(o, 'low'),
      // `amount` is in the base currency, `vol` in the quote currency.
      volume: dec(o, 'amount'),
      quoteVolume: dec(o, 'vol'),
      ...rollingWindow(ts),
      count: integer(o, 'count'),
    };
  },
};

// /market/tickers has no list of symbols: the watch list is picked out of every symbol.
export const htx = mappedDialect({
  name: 'htx',
  baseUrl: 'https://api.huobi.pro',
  paths: HTX_PATHS,
  weights: HTX_WEIGHTS,
  // "If API Key is empty in request, then each IP is limited to 10 times per second" (Spot API
  // "Access Frequency Limits"): 100 per 10 s.
  weightLimit: { max: 100, windowMs: 10_000 },
  decimalKeys: DECIMAL_KEYS,
  // Every ticker value is a JSON number (the module's comment): the pre-pass at once.
  bareDecimals: { tickers: 'usual' },
  coinList: (body) => envelopeList(REFERENCE, body, 'coins'),
  tickerList: (body) => ({ list: envelopeList(MARKET, body, 'tickers'), time: isObject(body) ? timeOf(body.ts) : null }),
  coins: COINS,
  tickers: TICKERS,
  readRefusal: readEnvelopeRefusal(ANY_ERROR),
});
