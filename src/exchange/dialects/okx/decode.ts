/**
 * OKX's answers into the model (dialects.md section 2, "okx"): the `{"code":"0","data"}`
 * envelope, one currencies row per coin and chain (grouped by `ccy` in first-seen order), all
 * values strings, a ticker without change fields (derived from `last` and `open24h`).
 */
import type { Refusal } from '../../dialect';
import { Refused } from '../../dialect';
import type { CoinRecord, NetworkRecord, RecordIssue, TickerRecord } from '../../../snapshot/model';
import { changeRatio, difference, stepOfSentPlaces } from '../../derive';
import { derivedCoinOf, readNetworks, rollingWindow, specSymbol } from '../../derived';
import { decodeTickerList } from '../../decode-list';
import { decodeCoinsCarried } from '../../signed-dialect';
import { bool, dec, FieldError, int, isObject, keyOf, requiredBool, requiredStr, shapeOf, ShapeError, str, type Json, type Parsed } from '../../read';
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

function readNetwork(o: Json, coin: string): NetworkRecord {
  const tick = str(o, 'wdTickSz', false);
  return {
    network: requiredStr(o, 'chain'),
    coin,
    name: null,
    isDefault: bool(o, 'mainNet', false),
    depositEnable: requiredBool(o, 'canDep'),
    withdrawEnable: requiredBool(o, 'canWd'),
    withdrawFee: dec(o, 'minFee'),
    withdrawMin: dec(o, 'minWd'),
    withdrawInternalMin: null,
    withdrawIntegerMultiple: stepOfSentPlaces(tick),
    minConfirm: int(o, 'minDepArrivalConfirm'),
    withdrawTag: bool(o, 'needTag', false),
    depositDust: dec(o, 'minDep'),
    contractAddress: str(o, 'ctAddr', false),
    contractAddressUrl: null,
    depositDesc: null,
    withdrawDesc: null,
  };
}

function readCoin(group: Json, before: CoinRecord | undefined, issues: RecordIssue[]): CoinRecord {
  const rows = group.rows as Json[];
  const coin = requiredStr(group, 'ccy');
  return derivedCoinOf(coin, str(rows[0] ?? {}, 'name', false), readNetworks(coin, rows, (n) => keyOf(n, 'chain'), (n) => readNetwork(n, coin), issues), before);
}

export function decodeCoins(body: unknown, previous?: ReadonlyMap<string, CoinRecord>): Parsed<CoinRecord> {
  // One row per coin and chain: grouped by `ccy`, in the order each coin is first seen.
  const groups = new Map<string, { ccy: unknown; rows: unknown[] }>();
  dataOf(body, 'coins').forEach((row, index) => {
    const ccy = keyOf(row, 'ccy');
    const key = ccy ?? `\u0000${index}`;
    const group = groups.get(key) ?? { ccy: ccy ?? (isObject(row) ? row.ccy : undefined), rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  });
  return decodeCoinsCarried([...groups.values()], (g) => keyOf(g, 'ccy'), readCoin, previous);
}

function readTicker(o: Json): TickerRecord {
  const last = dec(o, 'last');
  if (last === null) throw new FieldError('last is missing');
  const open = dec(o, 'open24h');
  return {
    symbol: specSymbol(requiredStr(o, 'instId')),
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
}

export function decodeTickers(body: unknown): Parsed<TickerRecord> {
  return decodeTickerList(dataOf(body, 'tickers'), readTicker);
}

/** `{"code":"0","data":[{"ts":"1597026383085"}]}`. */
export function serverTime(body: unknown): number {
  const [first] = dataOf(body, 'time');
  const ts = isObject(first) ? int(first, 'ts') : null;
  if (ts === null) throw new ShapeError('time: expected {"data":[{"ts":"<ms>"}]}');
  return ts;
}
