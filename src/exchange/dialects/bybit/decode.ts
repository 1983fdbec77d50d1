/**
 * Bybit's answers into the model (dialects.md section 2, "bybit"): the `{"retCode":0,"result"}`
 * envelope (an error may come with HTTP 200), `"1"`/`"0"` flags, `""` for "no value", a ticker
 * with `prevPrice24h` (the change derived) and one top-level `time`.
 */
import { difference, rollingWindow, specSymbol, stepOfSentPlaces } from '../../derive';
import { Refused, type Refusal } from '../../dialect';
import { integer, keyIn, listIn, type CoinSource, type TickerSource } from '../families/mapped-decode';
import { dec, FieldError, int, isObject, requiredDec, requiredStr, ShapeError, shapeOf, str, type Json } from '../../read';
import { refusalOf } from '../../refusal';
import { CLOCK_CODES, RATE_LIMIT_CODES } from './wire';

export function bybitRefusal(body: unknown): Refusal {
  const out = refusalOf(body, ['retCode'], ['retMsg']);
  // `10004 error sign! origin_string[<timestamp><api key><recv window><query>]` echoes the key: kept out of errors and logs.
  if (out.msg !== undefined) out.msg = out.msg.replace(/origin_string\[[^\]]*\]?/g, 'origin_string[<redacted>]');
  if (out.code !== undefined && (RATE_LIMIT_CODES as readonly string[]).includes(out.code)) out.pause = 'rate_limited';
  if (out.code !== undefined && (CLOCK_CODES as readonly string[]).includes(out.code)) out.clock = true;
  return out;
}

/** The envelope's `result`; a `retCode` other than 0 is Bybit refusing, whatever the status. */
function resultOf(body: unknown, what: string): Json {
  if (isObject(body) && body.retCode !== undefined && body.retCode !== 0 && body.retCode !== '0') throw new Refused(bybitRefusal(body));
  if (isObject(body) && isObject(body.result)) return body.result;
  throw new ShapeError(`${what}: expected {"retCode":0,"result":{...}}, got ${shapeOf(body)}`);
}

/** The list `key` of the envelope's `result`. */
export function listOf(body: unknown, key: string, what: string): unknown[] {
  const list = resultOf(body, what)[key];
  if (Array.isArray(list)) return list;
  throw new ShapeError(`${what}: expected result.${key} to be a list, got ${shapeOf(list)}`);
}

/** A flag sent as one of two documented values (`"1"`, `"0"`); anything else (absent included) fails the network: unknown is never closed. */
function flagOf(o: Json, key: string, open: unknown, closed: unknown): boolean {
  const v = o[key];
  if (v === open) return true;
  if (v === closed) return false;
  throw new FieldError(v === undefined || v === null ? `${key} is missing` : `${key} is not ${JSON.stringify(open)} or ${JSON.stringify(closed)}`);
}

export const COINS: CoinSource = {
  coin: (o) => keyIn(o, 'coin'),
  name: (o) => str(o, 'name'),
  networks: (o) => listIn(o, 'chains'),
  networkKey: (n) => keyIn(n, 'chain'),
  network: (o, coin) => ({
    network: requiredStr(o, 'chain'),
    coin,
    name: str(o, 'chainType'),
    isDefault: null,
    // "1" open, "0" closed; anything else makes the network unknown (its last known value kept), never closed.
    depositEnable: flagOf(o, 'chainDeposit', '1', '0'),
    withdrawEnable: flagOf(o, 'chainWithdraw', '1', '0'),
    withdrawFee: dec(o, 'withdrawFee'),
    withdrawMin: dec(o, 'withdrawMin'),
    withdrawInternalMin: null,
    withdrawIntegerMultiple: stepOfSentPlaces(str(o, 'minAccuracy')),
    minConfirm: integer(o, 'confirmation'),
    withdrawTag: null,
    depositDust: dec(o, 'depositMin'),
    contractAddress: str(o, 'contractAddress'),
    contractAddressUrl: null,
    depositDesc: null,
    withdrawDesc: null,
  }),
};

/** The tickers' list, and the answer's one `time`, every ticker's (rule 7). */
export function tickerList(body: unknown): { list: unknown[]; time: number | null } {
  return { list: listOf(body, 'list', 'tickers'), time: isObject(body) ? int(body, 'time') : null };
}

export const TICKERS: TickerSource = {
  symbol: (o) => keyIn(o, 'symbol', specSymbol),
  ticker: (o, symbol, time) => {
    const last = requiredDec(o, 'lastPrice');
    const open = dec(o, 'prevPrice24h');
    return {
      symbol,
      priceChange: difference(last, open),
      priceChangePercent: dec(o, 'price24hPcnt'),
      lastPrice: last,
      bidPrice: dec(o, 'bid1Price'),
      bidQty: dec(o, 'bid1Size'),
      askPrice: dec(o, 'ask1Price'),
      askQty: dec(o, 'ask1Size'),
      openPrice: open,
      highPrice: dec(o, 'highPrice24h'),
      lowPrice: dec(o, 'lowPrice24h'),
      volume: dec(o, 'volume24h'),
      quoteVolume: dec(o, 'turnover24h'),
      ...rollingWindow(time),
      count: null,
    };
  },
};

/** `GET /v5/market/time`: the envelope's top-level `time` (ms). */
export function serverTime(body: unknown): number {
  resultOf(body, 'time');
  const time = isObject(body) ? int(body, 'time') : null;
  if (time === null) throw new ShapeError('time: expected a top-level "time"');
  return time;
}
