/**
 * OKX's answers into the model (dialects.md section 2, "okx"): the `{"code":"0","data"}`
 * envelope, one currencies row per coin and chain (grouped by `ccy` in first-seen order), all
 * values strings, a ticker without change fields (derived from `last` and `open24h`).
 */
import type { Refusal } from '../../dialect';
import { Refused } from '../../dialect';
import type { CoinRecord, NetworkRecord, RecordIssue, TickerRecord } from '../../../snapshot/model';
import { changeRatio, difference, stepOfSentPlaces } from '../../derived-decimals';
import { derivedCoinOf, readNetworks, rollingWindow, specSymbol } from '../../derived';
import { bool, dec, FieldError, int, isObject, keyOf, reason, requiredBool, requiredStr, shapeOf, ShapeError, str, type Json, type Parsed } from '../../read';
import { refusalOf } from '../../refusal';
import { decodeCoinList, decodeTickerList } from '../../signed-dialect';
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

/** One currencies row as read on its own: all that building its coin takes from it; the coins are built after, from their rows. */
type Row = CoinRow | Failed;

/** A row with a usable `ccy`, the key rows are grouped by. */
interface CoinRow {
  ccy: string;
  /** Its coin's name (the coin's first row's is taken), or why it cannot be read. */
  name: { text: string | null } | { failure: string };
  /** Its network, or why it cannot be read; `chain` its key when it has one. */
  network: NetworkRecord | { failure: string };
  chain: string | undefined;
}

/** A row without a usable `ccy`: a coin of its own, which fails (`failure` says why). */
interface Failed {
  ccy: undefined;
  failure: string;
}

/** A field read, or why it cannot be (its FieldError's reason). */
function attempt<T>(read: () => T): { value: T } | { failure: string } {
  try {
    return { value: read() };
  } catch (err) {
    return { failure: reason(err) };
  }
}

function readRow(row: unknown): Row {
  const ccy = keyOf(row, 'ccy');
  if (ccy === undefined || !isObject(row)) {
    // Why a coin whose `ccy` is the row's fails (none when the row is not an object).
    const read = attempt(() => requiredStr({ ccy: isObject(row) ? row.ccy : undefined }, 'ccy'));
    return { ccy: undefined, failure: 'failure' in read ? read.failure : 'ccy is missing' };
  }
  const name = attempt(() => str(row, 'name', false));
  const network = attempt(() => readNetwork(row, ccy));
  return { ccy, name: 'failure' in name ? name : { text: name.value }, network: 'failure' in network ? network : network.value, chain: keyOf(row, 'chain') };
}

/** A coin as its rows give it: the rows of one `ccy` (its name from the first), or a row without one. */
type Coin = { ccy: string; rows: [CoinRow, ...CoinRow[]] } | Failed;

function readCoin(item: Json, before: CoinRecord | undefined, issues: RecordIssue[]): CoinRecord {
  const coin = item as unknown as Coin;
  if (coin.ccy === undefined) throw new FieldError(coin.failure);
  const [first] = coin.rows;
  if ('failure' in first.name) throw new FieldError(first.name.failure);
  const networks = readNetworks(coin.ccy, coin.rows, (r) => (r as CoinRow).chain, (r) => networkOf(r as unknown as CoinRow), issues);
  return derivedCoinOf(coin.ccy, first.name.text, networks, before);
}

function networkOf(row: CoinRow): NetworkRecord {
  if ('failure' in row.network) throw new FieldError(row.network.failure);
  return row.network;
}

/**
 * The coins of the currencies answer: each row read, then grouped by `ccy` in the order each
 * coin is first seen, and each coin built from its rows (its flags derived, its previous record
 * giving the last known value of a network unknown now).
 */
export function decodeCoins(body: unknown, previous: ReadonlyMap<string, CoinRecord> | undefined): Parsed<CoinRecord> {
  const rows = dataOf(body, 'coins').map(readRow);
  const coins: Coin[] = [];
  const byCcy = new Map<string, CoinRow[]>();
  for (const row of rows) {
    if (row.ccy === undefined) {
      coins.push(row);
      continue;
    }
    const same = byCcy.get(row.ccy);
    if (same !== undefined) same.push(row);
    else {
      const first: [CoinRow] = [row];
      byCcy.set(row.ccy, first);
      coins.push({ ccy: row.ccy, rows: first });
    }
  }
  return decodeCoinList(coins, (c) => (c as Coin).ccy, readCoin, previous);
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
