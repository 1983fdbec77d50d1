import { inTurns } from '../lib/timer';
import { readDecimal, TICKER_DECIMAL_KEYS } from './decimal';
import { sameCoin, sameNetwork as sameNetworkRecord, sameTicker } from '../snapshot/merge';
import type { CoinRecord, NetworkRecord, RecordIssue, TickerRecord } from '../snapshot/model';

/**
 * Validation of parsed answers into records, one record at a time: a malformed record is
 * set aside as a RecordIssue and the rest of the answer is still used. Unknown fields are
 * ignored; fields are copied by name into fresh objects, so keys like `__proto__` in the
 * input reach nothing. Hand-written rather than a schema library because this runs on
 * every poll over ~8,000 networks and must stay close to the cost of JSON.parse.
 */

export interface Parsed<T> {
  records: T[];
  issues: RecordIssue[];
}

/** Thrown for an answer whose overall shape is wrong (not a list, an error envelope...). */
export class ShapeError extends Error {
  override readonly name = 'ShapeError';
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A field failed: the reason names the field, never its (untrusted) value. */
class FieldError extends Error {}

function str(o: Json, key: string, required: boolean): string | null {
  const v = o[key];
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) {
    if (required) throw new FieldError(`${key} is missing`);
    return null;
  }
  throw new FieldError(`${key} is not a string`);
}

function requiredStr(o: Json, key: string): string {
  const v = str(o, key, true);
  if (v === null || v === '') throw new FieldError(`${key} is missing`);
  return v;
}

function bool(o: Json, key: string, required: boolean): boolean | null {
  const v = o[key];
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === undefined || v === null) {
    if (required) throw new FieldError(`${key} is missing`);
    return null;
  }
  throw new FieldError(`${key} is not a boolean`);
}

function requiredBool(o: Json, key: string): boolean {
  return bool(o, key, true) as boolean;
}

function dec(o: Json, key: string): string | null {
  const v = readDecimal(o[key]);
  if (v === undefined) {
    if (o[key] === undefined) return null;
    throw new FieldError(`${key} is not a decimal`);
  }
  return v;
}

function int(o: Json, key: string): number | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d{1,15}$/.test(v)) return Number(v);
  throw new FieldError(`${key} is not an integer`);
}

function reason(err: unknown): string {
  if (err instanceof FieldError) return err.message;
  throw err;
}

/** The list inside an answer: the array itself, or a `data` array of an envelope. */
function listOf(body: unknown, what: string): unknown[] {
  if (Array.isArray(body)) return body;
  if (isObject(body) && Array.isArray(body.data)) return body.data;
  if (isObject(body) && 'code' in body) throw new ShapeError(`${what}: expected a list, got an error envelope`);
  throw new ShapeError(`${what}: expected a list, got ${describe(body)}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function readNetwork(o: Json, coin: string): NetworkRecord {
  // `coin` repeats the parent; the parent is what keys the record.
  str(o, 'coin', false);
  return {
    network: requiredStr(o, 'network'),
    coin,
    name: str(o, 'name', false),
    isDefault: bool(o, 'isDefault', false) ?? false,
    depositEnable: requiredBool(o, 'depositEnable'),
    withdrawEnable: requiredBool(o, 'withdrawEnable'),
    withdrawFee: dec(o, 'withdrawFee'),
    withdrawMin: dec(o, 'withdrawMin'),
    withdrawInternalMin: dec(o, 'withdrawInternalMin'),
    withdrawIntegerMultiple: dec(o, 'withdrawIntegerMultiple'),
    minConfirm: int(o, 'minConfirm'),
    withdrawTag: bool(o, 'withdrawTag', false),
    depositDust: dec(o, 'depositDust'),
    contractAddress: str(o, 'contractAddress', false),
    contractAddressUrl: str(o, 'contractAddressUrl', false),
    depositDesc: str(o, 'depositDesc', false),
    withdrawDesc: str(o, 'withdrawDesc', false),
  };
}

function keyOf(o: unknown, key: string): string | undefined {
  if (!isObject(o)) return undefined;
  const v = o[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/*
 * Reuse of previous records. Given the records of the previous answer, a raw record whose
 * every field is exactly what its previous record holds gives back that previous object,
 * without building a new one: most of a coin list is unchanged from poll to poll, and the
 * merge, the diff, the metrics and the state store all skip an unchanged record by identity.
 * The checks below accept only the plain cases (a string that is the same string, a boolean
 * that is the same boolean, null or absent for null); anything else takes the full path,
 * so a reused record is always the one the full path would have built.
 */

function sameText(v: unknown, old: string | null): boolean {
  return typeof v === 'string' ? v === old : v == null && old === null;
}

/** As sameText, for a decimal (an empty string reads as null, a number as its shortest text). */
function sameDecimal(v: unknown, old: string | null): boolean {
  if (typeof v === 'string') return v === '' ? old === null : v === old;
  if (typeof v === 'number') return old !== null && String(v) === old;
  return v == null && old === null;
}

function sameFlag(v: unknown, old: boolean | null): boolean {
  if (typeof v === 'boolean') return v === old;
  if (v === 'true' || v === 'false') return (v === 'true') === old;
  return v == null && old === null;
}

function sameInt(v: unknown, old: number | null): boolean {
  if (typeof v === 'number') return v === old;
  // The full path reads at most 15 digits from a string.
  if (typeof v === 'string') return old !== null && v.length <= 15 && v === String(old);
  return v == null && old === null;
}

function sameNetwork(o: Json, old: NetworkRecord): boolean {
  const coin = o.coin;
  return (
    o.network === old.network &&
    (typeof coin === 'string' || coin == null) &&
    sameText(o.name, old.name) &&
    (o.isDefault == null ? !old.isDefault : sameFlag(o.isDefault, old.isDefault)) &&
    o.depositEnable != null && sameFlag(o.depositEnable, old.depositEnable) &&
    o.withdrawEnable != null && sameFlag(o.withdrawEnable, old.withdrawEnable) &&
    sameDecimal(o.withdrawFee, old.withdrawFee) &&
    sameDecimal(o.withdrawMin, old.withdrawMin) &&
    sameDecimal(o.withdrawInternalMin, old.withdrawInternalMin) &&
    sameDecimal(o.withdrawIntegerMultiple, old.withdrawIntegerMultiple) &&
    sameInt(o.minConfirm, old.minConfirm) &&
    sameFlag(o.withdrawTag, old.withdrawTag) &&
    sameDecimal(o.depositDust, old.depositDust) &&
    sameText(o.contractAddress, old.contractAddress) &&
    sameText(o.contractAddressUrl, old.contractAddressUrl) &&
    sameText(o.depositDesc, old.depositDesc) &&
    sameText(o.withdrawDesc, old.withdrawDesc)
  );
}

/** The "all networks" flag as the full path reads it: given, or derived from the networks. */
function sameAllFlag(v: unknown, old: boolean, derived: () => boolean): boolean {
  return v == null ? old === derived() : sameFlag(v, old);
}

function sameCoinAsRaw(o: Json, old: CoinRecord): boolean {
  const nets = o.networkList;
  if (!sameText(o.name, old.name) || !Array.isArray(nets) || nets.length !== old.networkList.length) return false;
  for (let j = 0; j < nets.length; j++) {
    const n: unknown = nets[j];
    if (!isObject(n) || !sameNetwork(n, old.networkList[j] as NetworkRecord)) return false;
  }
  return (
    sameAllFlag(o.depositAllEnable, old.depositAllEnable, () => old.networkList.every((n) => n.depositEnable)) &&
    sameAllFlag(o.withdrawAllEnable, old.withdrawAllEnable, () => old.networkList.every((n) => n.withdrawEnable))
  );
}

function sameTickerAsRaw(o: Json, old: TickerRecord): boolean {
  for (const k of TICKER_DECIMAL_KEYS) if (!sameDecimal(o[k], old[k])) return false;
  return sameInt(o.openTime, old.openTime) && sameInt(o.closeTime, old.closeTime) && sameInt(o.count, old.count);
}

/*
 * Duplicates. An answer may carry the same key twice (a coin, a network of a coin, a ticker
 * symbol). Copies that are identical field by field are one record. Copies that differ in
 * any field, or of which one is malformed, are ambiguous: no copy is taken (the first is no
 * more right than the last), the key gets one issue, and the merge keeps its previous value
 * (or, with none, leaves it out as unknown) exactly as for a malformed record. Reading
 * "the first copy says closed" as a closure raised false alerts. Identical means the merge's
 * sameCoin / sameNetwork / sameTicker: exact text, so a copy in another notation differs.
 */

/** Issues of one copy, as a comparable text (an identical copy repeats its issues exactly). */
function issuesText(issues: readonly RecordIssue[]): string {
  return issues.map((i) => `${i.network ?? ''}\u0000${i.index}\u0000${i.reason}`).join('\u0001');
}

function withoutKeys<T>(records: T[], keys: ReadonlySet<string> | undefined, key: (r: T) => string): T[] {
  return keys === undefined ? records : records.filter((r) => !keys.has(key(r)));
}

/** The networks of one coin, duplicates resolved as above. */
function readNetworks(nets: readonly unknown[], coin: string, issues: RecordIssue[]): NetworkRecord[] {
  const networkList: NetworkRecord[] = [];
  const at = new Map<string, number>();
  // Networks with an issue under their key (malformed, or copies that disagree): no copy is taken.
  let ambiguous: Set<string> | undefined;
  const setAside = (network: string): void => {
    (ambiguous ??= new Set()).add(network);
  };
  for (let j = 0; j < nets.length; j++) {
    const n = nets[j];
    const network = keyOf(n, 'network');
    try {
      if (!isObject(n)) throw new FieldError(`network is ${describe(n)}, not an object`);
      const record = readNetwork(n, coin);
      const first = at.get(record.network);
      if (first === undefined) {
        at.set(record.network, networkList.length);
        networkList.push(record);
      } else if (!sameNetworkRecord(networkList[first] as NetworkRecord, record) && !ambiguous?.has(record.network)) {
        setAside(record.network);
        issues.push({ entity: 'network', coin, network: record.network, index: j, reason: 'network appears twice in networkList with different values' });
      }
    } catch (err) {
      const issue: RecordIssue = { entity: 'network', coin, index: j, reason: reason(err) };
      if (network !== undefined) {
        issue.network = network;
        setAside(network);
      }
      issues.push(issue);
    }
  }
  return withoutKeys(networkList, ambiguous, (n) => n.network);
}

/**
 * The coin list (`GET /api/v3/coins`). `previous` (the coins of the last snapshot) lets an
 * unchanged coin come back as its previous object; the result is the same without it.
 */
export function validateCoins(body: unknown, previous?: ReadonlyMap<string, CoinRecord>): Parsed<CoinRecord> {
  const steps = coinsInParts(body, previous);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** Coins validated per turn of the event loop by validateCoinsInTurns. */
const COINS_PER_TURN = 500;

/**
 * validateCoins, COINS_PER_TURN coins read afresh per turn of the event loop: when an exchange
 * closes every network, no coin is its previous object, and 4,000 coins read at once held the
 * loop for 80-100 ms. A coin that comes back as its previous object costs little and is not
 * counted, so an ordinary (unchanged) answer is read in one turn.
 */
export function validateCoinsInTurns(body: unknown, previous?: ReadonlyMap<string, CoinRecord>): Promise<Parsed<CoinRecord>> {
  return inTurns(coinsInParts(body, previous));
}

/** validateCoins, pausing (a yield) after every COINS_PER_TURN coins read afresh. */
function* coinsInParts(body: unknown, previous?: ReadonlyMap<string, CoinRecord>): Generator<void, Parsed<CoinRecord>, void> {
  const list = listOf(body, 'coins');
  const records: CoinRecord[] = [];
  const issues: RecordIssue[] = [];
  /** Per coin, its first copy: where its record is, and that copy's network issues. */
  const seen = new Map<string, { at: number; issues: readonly RecordIssue[] }>();
  let ambiguous: Set<string> | undefined;
  let fresh = 0;
  for (let i = 0; i < list.length; i++) {
    if (fresh >= COINS_PER_TURN) {
      fresh = 0;
      yield;
    }
    const item = list[i];
    const coinKey = keyOf(item, 'coin');
    const own: RecordIssue[] = [];
    try {
      if (!isObject(item)) throw new FieldError(`coin is ${describe(item)}, not an object`);
      const coin = requiredStr(item, 'coin');
      let record: CoinRecord;
      const old = previous?.get(coin);
      if (old !== undefined && sameCoinAsRaw(item, old)) record = old;
      else {
        fresh += 1;
        const nets = item.networkList;
        if (!Array.isArray(nets)) throw new FieldError('networkList is not a list');
        const networkList = readNetworks(nets, coin, own);
        const depositAll = bool(item, 'depositAllEnable', false);
        const withdrawAll = bool(item, 'withdrawAllEnable', false);
        record = {
          coin,
          name: str(item, 'name', false),
          depositAllEnable: depositAll ?? networkList.every((n) => n.depositEnable),
          withdrawAllEnable: withdrawAll ?? networkList.every((n) => n.withdrawEnable),
          networkList,
        };
      }
      const first = seen.get(coin);
      if (first === undefined) {
        seen.set(coin, { at: records.length, issues: own });
        records.push(record);
        issues.push(...own);
      } else if ((!sameCoin(records[first.at] as CoinRecord, record) || issuesText(first.issues) !== issuesText(own)) && !ambiguous?.has(coin)) {
        (ambiguous ??= new Set()).add(coin);
        issues.push({ entity: 'coin', coin, index: i, reason: 'coin appears twice in the list with different values' });
      }
    } catch (err) {
      const issue: RecordIssue = { entity: 'coin', index: i, reason: reason(err) };
      if (coinKey !== undefined) {
        issue.coin = coinKey;
        (ambiguous ??= new Set()).add(coinKey);
      }
      issues.push(issue);
    }
  }
  return { records: withoutKeys(records, ambiguous, (c) => c.coin), issues };
}

function readTicker(o: Json): TickerRecord {
  const lastPrice = dec(o, 'lastPrice');
  if (lastPrice === null) throw new FieldError('lastPrice is missing');
  return {
    symbol: requiredStr(o, 'symbol'),
    priceChange: dec(o, 'priceChange'),
    priceChangePercent: dec(o, 'priceChangePercent'),
    lastPrice,
    bidPrice: dec(o, 'bidPrice'),
    bidQty: dec(o, 'bidQty'),
    askPrice: dec(o, 'askPrice'),
    askQty: dec(o, 'askQty'),
    openPrice: dec(o, 'openPrice'),
    highPrice: dec(o, 'highPrice'),
    lowPrice: dec(o, 'lowPrice'),
    volume: dec(o, 'volume'),
    quoteVolume: dec(o, 'quoteVolume'),
    openTime: int(o, 'openTime'),
    closeTime: int(o, 'closeTime'),
    count: int(o, 'count'),
  };
}

/**
 * Tickers (`GET /api/v3/market/ticker/24hr`). A single object (the `symbol=` form) is read
 * as a list of one, and so is the one-element array some deployments send instead.
 * `previous` works as for validateCoins.
 */
export function validateTickers(body: unknown, previous?: ReadonlyMap<string, TickerRecord>): Parsed<TickerRecord> {
  const steps = tickersInParts(body, previous);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** Tickers read afresh per turn of the event loop by validateTickersInTurns. */
const TICKERS_PER_TURN = 1_000;

/**
 * validateTickers, TICKERS_PER_TURN tickers read afresh per turn of the event loop: 3,500
 * tickers whose prices all moved, read at once, held the loop 15-25 ms.
 */
export function validateTickersInTurns(body: unknown, previous?: ReadonlyMap<string, TickerRecord>): Promise<Parsed<TickerRecord>> {
  return inTurns(tickersInParts(body, previous));
}

/** validateTickers, pausing (a yield) after every TICKERS_PER_TURN tickers read afresh. */
function* tickersInParts(body: unknown, previous?: ReadonlyMap<string, TickerRecord>): Generator<void, Parsed<TickerRecord>, void> {
  const list = isObject(body) && typeof body.symbol === 'string' ? [body] : listOf(body, 'tickers');
  const records: TickerRecord[] = [];
  const issues: RecordIssue[] = [];
  const seen = new Map<string, number>();
  let ambiguous: Set<string> | undefined;
  let fresh = 0;
  for (let i = 0; i < list.length; i++) {
    if (fresh >= TICKERS_PER_TURN) {
      fresh = 0;
      yield;
    }
    const item = list[i];
    try {
      if (!isObject(item)) throw new FieldError(`ticker is ${describe(item)}, not an object`);
      const old = typeof item.symbol === 'string' ? previous?.get(item.symbol) : undefined;
      const reuse = old !== undefined && sameTickerAsRaw(item, old);
      if (!reuse) fresh += 1;
      const record = reuse ? old : readTicker(item);
      const first = seen.get(record.symbol);
      if (first === undefined) {
        seen.set(record.symbol, records.length);
        records.push(record);
      } else if (!sameTicker(records[first] as TickerRecord, record) && !ambiguous?.has(record.symbol)) {
        // Copies that disagree (see "Duplicates" above): neither is taken.
        (ambiguous ??= new Set()).add(record.symbol);
        issues.push({ entity: 'ticker', symbol: record.symbol, index: i, reason: 'symbol appears twice in the list with different values' });
      }
    } catch (err) {
      const issue: RecordIssue = { entity: 'ticker', index: i, reason: reason(err) };
      const symbol = keyOf(item, 'symbol');
      if (symbol !== undefined) {
        issue.symbol = symbol;
        (ambiguous ??= new Set()).add(symbol);
      }
      issues.push(issue);
    }
  }
  return { records: withoutKeys(records, ambiguous, (t) => t.symbol), issues };
}
