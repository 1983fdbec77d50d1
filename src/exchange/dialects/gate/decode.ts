/**
 * Gate's answers into the model (dialects.md section 2, "gate"). Answers are bare arrays; an
 * error is `{"label":"...","message":"..."}`. The public currency list carries no fees,
 * minimums or confirmations (they are on the signed `/wallet/withdraw_status`, not read here):
 * those fields are null.
 */
import { Refused } from '../../dialect';
import { percentAsRatio, specSymbol } from '../../derive';
import { booleanValue, keyIn, statusFlag, type CoinSource, type TickerSource } from '../families/mapped-decode';
import { dec, isObject, requiredDec, requiredStr, ShapeError, shapeOf, str } from '../../read';
import { chainsOf, envelopeRefusal } from '../families/public';
import { ERRORS } from './wire';

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

export const COINS: CoinSource = {
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

export const TICKERS: TickerSource = {
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

/** The coins of an answer: a bare array. */
export function coinList(body: unknown): unknown[] {
  return listOf(body, 'coins');
}

/** The tickers of an answer: a bare array (Gate sends no time). */
export function tickerList(body: unknown): { list: unknown[]; time: null } {
  return { list: listOf(body, 'tickers'), time: null };
}
