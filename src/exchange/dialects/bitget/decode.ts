/**
 * Bitget's answers into the model (dialects.md section 2, "bitget"). Answers are
 * `{"code":"00000","msg":"success","requestTime":<ms>,"data":[...]}` and every value in them is
 * a string, booleans too (`"true"`/`"false"`); an error is the same envelope with another code,
 * also inside an answer of status 200.
 */
import { difference, nonZero, rollingWindow, specSymbol, stepOfPlaces } from '../../derive';
import { booleanValue, integer, keyIn, optionalFlag, statusFlag, timeOf, type CoinSource, type TickerSource } from '../families/mapped-decode';
import { dec, requiredDec, requiredStr, str, type Json } from '../../read';
import { chainsOf, envelopeList } from '../families/public';
import { ENVELOPE } from './wire';

/** `withdrawStep` when it is not 0, else 10^-`withdrawMinScale` (dialects.md: bitget). */
function withdrawMultiple(n: Json): string | null {
  const step = dec(n, 'withdrawStep');
  if (step !== null && nonZero(step)) return step;
  return stepOfPlaces(n.withdrawMinScale);
}

export const COINS: CoinSource = {
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

export const TICKERS: TickerSource = {
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

/** The coins of an answer: the envelope's `data`, a list. */
export function coinList(body: unknown): unknown[] {
  return envelopeList(ENVELOPE, body, 'coins');
}

/** The tickers of an answer: the envelope's `data`, a list (no time of the answer's own: each ticker has its `ts`). */
export function tickerList(body: unknown): { list: unknown[]; time: null } {
  return { list: envelopeList(ENVELOPE, body, 'tickers'), time: null };
}
