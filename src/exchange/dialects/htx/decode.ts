/**
 * HTX's answers into the model (dialects.md section 2, "htx"). The two answers come in two
 * envelopes: the currencies `{"code":200,"data":[...]}` (an error `{"code":<n>,"message"}`), the
 * tickers `{"status":"ok","ts":<ms>,"data":[...]}` (an error `{"status":"error","err-code",
 * "err-msg"}`), also inside answers of status 200. Ticker values are JSON numbers written by
 * Java (`8988.0`, `2.3822168242201668E8`): their text is kept (rule 1).
 */
import { changeRatio, difference, rollingWindow, specSymbol, stepOfPlaces } from '../../derive';
import { booleanValue, integer, keyIn, optionalFlag, statusFlag, timeOf, type CoinSource, type TickerSource } from '../families/mapped-decode';
import { dec, isObject, requiredDec, requiredStr, str, type Json } from '../../read';
import { chainsOf, envelopeList } from '../families/public';
import { MARKET, REFERENCE } from './wire';

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

export const COINS: CoinSource = {
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

export const TICKERS: TickerSource = {
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

/** The coins of an answer: the reference data's `data`, a list. */
export function coinList(body: unknown): unknown[] {
  return envelopeList(REFERENCE, body, 'coins');
}

/** The tickers of an answer: the market data's `data`, a list, and its one `ts`. */
export function tickerList(body: unknown): { list: unknown[]; time: number | null } {
  return { list: envelopeList(MARKET, body, 'tickers'), time: isObject(body) ? timeOf(body.ts) : null };
}
