/**
 * OKX's answers into the model (dialects.md section 2, "okx"): the `{"code":"0","data"}`
 * envelope, one currencies row per coin and chain (grouped by `ccy` in first-seen order), all
 * values strings, a ticker without change fields (derived from `last` and `open24h`).
 */
import { changeRatio, difference, rollingWindow, specSymbol, stepOfSentPlaces } from '../../derive';
import { Refused, type Refusal } from '../../dialect';
import { keyIn, type CoinSource, type TickerSource } from '../families/mapped-decode';
import { bool, dec, int, isObject, keyOf, requiredBool, requiredDec, requiredStr, ShapeError, shapeOf, str, type Json } from '../../read';
import { refusalOf } from '../../refusal';
import { CLOCK_CODES, RATE_LIMIT_CODES } from './wire';

/** OKX's `{"code","msg"}`: `code` "0" is success; the rate-limit and clock codes say so. */
export function okxRefusal(body: unknown): Refusal {
  const out = refusalOf(body, ['code'], ['msg']);
  if (out.code !== undefined && (RATE_LIMIT_CODES as readonly string[]).includes(out.code)) out.pause = 'rate_limited';
  if (out.code !== undefined && (CLOCK_CODES as readonly string[]).includes(out.code)) out.clock = true;
  return out;
}

/** The `data` list; an envelope whose `code` is not "0" is OKX refusing, whatever the status. */
export function dataOf(body: unknown, what: string): unknown[] {
  if (isObject(body) && body.code !== undefined && body.code !== '0' && body.code !== 0) throw new Refused(okxRefusal(body));
  if (isObject(body) && Array.isArray(body.data)) return body.data;
  throw new ShapeError(`${what}: expected {"code":"0","data":[...]}, got ${shapeOf(body)}`);
}

/** The rows of one `ccy`, in the order of the answer: one coin. */
interface Coin {
  ccy: string;
  rows: Json[];
}

/**
 * The coins of the currencies answer: its rows grouped by `ccy` in the order each coin is first
 * seen. A row without a usable `ccy` (or not an object) stays as it is: a coin that fails.
 */
export function coinsOf(body: unknown): unknown[] {
  const coins: unknown[] = [];
  const byCcy = new Map<string, Json[]>();
  for (const row of dataOf(body, 'coins')) {
    const ccy = keyOf(row, 'ccy');
    if (ccy === undefined || !isObject(row)) {
      coins.push(row);
      continue;
    }
    const rows = byCcy.get(ccy);
    if (rows !== undefined) rows.push(row);
    else {
      const coin: Coin = { ccy, rows: [row] };
      byCcy.set(ccy, coin.rows);
      coins.push(coin);
    }
  }
  return coins;
}

/** A coin of grouped rows: its name from its first row, each row one network (chain). */
export const COINS: CoinSource = {
  coin: (c) => keyIn(c, 'ccy'),
  name: (c) => str((c as unknown as Coin).rows[0] as Json, 'name'),
  networks: (c) => (c as unknown as Coin).rows,
  networkKey: (row) => keyIn(row, 'chain'),
  network: (o, coin) => ({
    network: requiredStr(o, 'chain'),
    coin,
    name: null,
    isDefault: bool(o, 'mainNet'),
    depositEnable: requiredBool(o, 'canDep'),
    withdrawEnable: requiredBool(o, 'canWd'),
    withdrawFee: dec(o, 'minFee'),
    withdrawMin: dec(o, 'minWd'),
    withdrawInternalMin: null,
    withdrawIntegerMultiple: stepOfSentPlaces(str(o, 'wdTickSz')),
    minConfirm: int(o, 'minDepArrivalConfirm'),
    withdrawTag: bool(o, 'needTag'),
    depositDust: dec(o, 'minDep'),
    contractAddress: str(o, 'ctAddr'),
    contractAddressUrl: null,
    depositDesc: null,
    withdrawDesc: null,
  }),
};

export const TICKERS: TickerSource = {
  symbol: (o) => keyIn(o, 'instId', specSymbol),
  ticker: (o, symbol) => {
    const last = requiredDec(o, 'last');
    const open = dec(o, 'open24h');
    return {
      symbol,
      // OKX sends no change: derived exactly from last and open24h (rule 3).
      priceChange: difference(last, open),
      priceChangePercent: changeRatio(last, open),
      lastPrice: last,
      bidPrice: dec(o, 'bidPx'),
      bidQty: dec(o, 'bidSz'),
      askPrice: dec(o, 'askPx'),
      askQty: dec(o, 'askSz'),
      openPrice: open,
      highPrice: dec(o, 'high24h'),
      lowPrice: dec(o, 'low24h'),
      volume: dec(o, 'vol24h'),
      quoteVolume: dec(o, 'volCcy24h'),
      ...rollingWindow(int(o, 'ts')),
      count: null,
    };
  },
};

/** `{"code":"0","data":[{"ts":"1597026383085"}]}`. */
export function serverTime(body: unknown): number {
  const [first] = dataOf(body, 'time');
  const ts = isObject(first) ? int(first, 'ts') : null;
  if (ts === null) throw new ShapeError('time: expected {"data":[{"ts":"<ms>"}]}');
  return ts;
}
