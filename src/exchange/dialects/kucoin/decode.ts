/**
 * KuCoin's answers into the model (dialects.md section 2, "kucoin"). Answers are
 * `{"code":"200000","data":...}`; an error is `{"code":"<other>","msg":"..."}`, also inside an
 * answer of status 200.
 */
import { difference, rollingWindow, specSymbol, stepOfPlaces } from '../../derive';
import { booleanValue, integer, keyIn, optionalFlag, statusFlag, timeOf, type CoinSource, type TickerSource } from '../families/mapped-decode';
import { dec, isObject, requiredDec, requiredStr, ShapeError, shapeOf, str } from '../../read';
import { chainsOf, envelopeData, envelopeList } from '../families/public';
import { ENVELOPE } from './wire';

/** The coins of an answer: the envelope's `data`, a list. */
export function coinList(body: unknown): unknown[] {
  return envelopeList(ENVELOPE, body, 'coins');
}

/** `data.ticker[]` and the one `data.time` of all of them. */
export function tickerList(body: unknown): { list: unknown[]; time: number | null } {
  const data = envelopeData(ENVELOPE, body, 'tickers');
  if (isObject(data) && Array.isArray(data.ticker)) return { list: data.ticker, time: timeOf(data.time) };
  throw new ShapeError(`tickers: expected {"time", "ticker": [...]} in data, got ${shapeOf(data)}`);
}

export const COINS: CoinSource = {
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

export const TICKERS: TickerSource = {
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
