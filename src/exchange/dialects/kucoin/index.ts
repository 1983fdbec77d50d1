/**
 * The dialect `kucoin`: KuCoin's public spot API (https://www.kucoin.com/docs-new), mapped
 * onto the model as dialects.md section 2 says. No key: both requests are public. Answers are
 * `{"code":"200000","data":...}`; an error is `{"code":"<other>","msg":"..."}`, also inside an
 * answer of status 200.
 */
import { difference, rollingWindow, specSymbol, stepOfPlaces } from '../../derive';
import { booleanValue, integer, keyIn, optionalFlag, statusFlag, timeOf, type CoinSource, type TickerSource } from '../families/mapped-decode';
import { mappedDialect } from '../families/mapped';
import { dec, isObject, requiredDec, requiredStr, ShapeError, shapeOf, str } from '../../read';
import { chainsOf, envelopeData, envelopeList, readEnvelopeRefusal, type Envelope } from '../families/public';

export const KUCOIN_PATHS = { coins: '/api/v3/currencies', tickers: '/api/v1/market/allTickers' } as const;

/**
 * KuCoin's documented request weights in its public pool (2,000 per 30 s per IP): Get All
 * Currencies 3, Get All Tickers 15: the default budget is that pool, as KuCoin counts.
 */
export const KUCOIN_WEIGHTS = { coins: 3, tickers: 15 } as const;

/** `{"code":"200000","data"}`; `"429000"` is KuCoin's "Too Many Requests" (sent with HTTP 429). */
const ENVELOPE: Envelope = { statusKey: 'code', success: (v) => v === '200000', codeKeys: ['code'], msgKeys: ['msg'], tooMany: ['429000'], shape: '{"code": "200000", "data": ...}' };

const DECIMAL_KEYS = {
  coins: ['withdrawalMinFee', 'withdrawalMinSize', 'depositMinSize'],
  tickers: ['buy', 'bestBidSize', 'sell', 'bestAskSize', 'changeRate', 'changePrice', 'high', 'low', 'vol', 'volValue', 'last'],
};

/** `data.ticker[]` and the one `data.time` of all of them. */
function tickerList(body: unknown): { list: unknown[]; time: number | null } {
  const data = envelopeData(ENVELOPE, body, 'tickers');
  if (isObject(data) && Array.isArray(data.ticker)) return { list: data.ticker, time: timeOf(data.time) };
  throw new ShapeError(`tickers: expected {"time", "ticker": [...]} in data, got ${shapeOf(data)}`);
}

const COINS: CoinSource = {
  ...chainsOf('currency', 'chainId'),
  // `name` repeats the symbol; `fullName` is the name.
  name: (o) => str(o, 'fullName'),
  network: (n, coin) => ({
    // The id withdrawals take (`eth`, `trx`, `bech32`).
    network: requiredStr(n, 'chainId'),
    coin,
    name: str(n, 'chainName'),
    isDefault: null,
    depositEnable: statusFlag(n, 'isDepositEnabled', booleanValue),
    withdrawEnable: statusFlag(n, 'isWithdrawEnabled', booleanValue),
    withdrawFee: dec(n, 'withdrawalMinFee'),
    withdrawMin: dec(n, 'withdrawalMinSize'),
    withdrawInternalMin: null,
    withdrawIntegerMultiple: stepOfPlaces(n.withdrawPrecision),
    minConfirm: integer(n, 'confirms'),
    withdrawTag: optionalFlag(n, 'needTag', booleanValue),
    depositDust: dec(n, 'depositMinSize'),
    contractAddress: str(n, 'contractAddress'),
    contractAddressUrl: null,
    depositDesc: null,
    withdrawDesc: null,
  }),
};

const TICKERS: TickerSource = {
  symbol: (o) => keyIn(o, 'symbol', specSymbol),
  ticker: (o, symbol, time) => {
    const lastPrice = requiredDec(o, 'last');
    const priceChange = dec(o, 'changePrice');
    return {
      symbol,
      priceChange,
      priceChangePercent: dec(o, 'changeRate'),
      lastPrice,
      // `buy` is the best bid and `sell` the best ask (ccxt's comment calling `buy` "bestAsk" is wrong).
      bidPrice: dec(o, 'buy'),
      bidQty: dec(o, 'bestBidSize'),
      askPrice: dec(o, 'sell'),
      askQty: dec(o, 'bestAskSize'),
      openPrice: difference(lastPrice, priceChange),
      highPrice: dec(o, 'high'),
      lowPrice: dec(o, 'low'),
      volume: dec(o, 'vol'),
      quoteVolume: dec(o, 'volValue'),
      ...rollingWindow(time),
      count: null,
    };
  },
};

// allTickers has no list of symbols: the watch list is picked out of every symbol.
export const kucoin = mappedDialect({
  name: 'kucoin',
  baseUrl: 'https://api.kucoin.com',
  paths: KUCOIN_PATHS,
  weights: KUCOIN_WEIGHTS,
  weightLimit: { max: 2_000, windowMs: 30_000 },
  decimalKeys: DECIMAL_KEYS,
  coinList: (body) => envelopeList(ENVELOPE, body, 'coins'),
  tickerList,
  coins: COINS,
  tickers: TICKERS,
  readRefusal: readEnvelopeRefusal(ENVELOPE),
});
