/**
 * The loops the signed dialects' decodes share (binance, mexc, okx, bybit): read each item of
 * a list into a record, a malformed item an issue (its key set aside, never read as closed), a
 * key sent twice resolved by KeyedRecords (duplicates.ts), in turns of the event loop. A
 * dialect gives only how one item becomes a record.
 *
 * Work follows change as in decode-records.ts: with the client's `memory`, an item whose text
 * is that of a record of the last answer is what it was decoded to then (neither parsed nor
 * read again), and every record read afresh that depends on its text alone is remembered.
 * The issues are those these dialects always said: a coin's network issues first, then the
 * coins' own, every copy's network issues, and a failed ticker without its symbol.
 */
import { sameCoin, sameTicker } from '../snapshot/merge';
import type { CoinRecord, RecordIssue, TickerRecord } from '../snapshot/model';
import { COINS_PER_TURN, decodeItems, rawOf, recalled, remember, TICKERS_PER_TURN, type AnswerMemory } from './decode-records';
import { KeyedRecords } from './duplicates';
import { FieldError, isObject, reason, shapeOf, type Json, type Parsed } from './read';

/** One raw coin into the model: `before` is its previous record, `issues` takes those of its networks (derived.ts readNetworks). */
export type CoinReader = (item: Json, before: CoinRecord | undefined, issues: RecordIssue[]) => CoinRecord;


/**
 * The coins of a list: `key` names the coin of a raw item (to find its previous record, and
 * for the issue of one that fails). Each is read with its previous record, so that a network
 * whose flag is unknown keeps its last known value (derived.ts); a coin read with no network
 * issue depends on its text alone and is remembered. The networks' issues come first.
 */
export function* decodeCoinList(
  list: readonly unknown[],
  key: (item: unknown) => string | undefined,
  read: CoinReader,
  previous: ReadonlyMap<string, CoinRecord> | undefined,
  memory?: AnswerMemory,
): Generator<void, Parsed<CoinRecord>, void> {
  const coins = new KeyedRecords<CoinRecord>((c) => c.coin, sameCoin);
  const networkIssues: RecordIssue[] = [];
  const issues: RecordIssue[] = [];
  const add = (record: CoinRecord, index: number): void => {
    if (coins.add(record) === 'conflict') issues.push({ entity: 'coin', coin: record.coin, index, reason: 'coin appears twice with different values' });
  };
  let fresh = 0;
  for (let index = 0; index < list.length; index++) {
    const known = recalled<CoinRecord>(list[index], null, memory);
    if (known !== undefined) {
      add(known, index);
      continue;
    }
    if (fresh >= COINS_PER_TURN) {
      fresh = 0;
      yield;
    }
    fresh += 1;
    const item = rawOf(list[index], memory);
    const coin = key(item);
    const own: RecordIssue[] = [];
    try {
      if (!isObject(item)) throw new FieldError(`coin is ${shapeOf(item)}, not an object`);
      const before = coin === undefined ? undefined : previous?.get(coin);
      const got = read(item, before, own);
      const record = before !== undefined && sameCoin(before, got) ? before : got;
      if (own.length === 0) remember(memory, item, record, null);
      add(record, index);
    } catch (err) {
      if (coin !== undefined) coins.setAside(coin);
      issues.push({ entity: 'coin', ...(coin !== undefined && { coin }), index, reason: reason(err) });
    } finally {
      networkIssues.push(...own);
    }
  }
  memory?.commit();
  return { records: coins.taken(), issues: [...networkIssues, ...issues] };
}

/**
 * The tickers of a list; `context` is what reading one depends on beside its text (Bybit's
 * answer time: a ticker remembered under another time is read again).
 */
export function* decodeTickerList(list: readonly unknown[], read: (item: Json) => TickerRecord, memory?: AnswerMemory, context: unknown = null): Generator<void, Parsed<TickerRecord>, void> {
  // Read through the memory as items (a failed one too: it depends on its text alone), in list order.
  const readOne = (item: unknown): { record: TickerRecord } | { reason: string } => {
    try {
      if (!isObject(item)) throw new FieldError(`ticker is ${shapeOf(item)}, not an object`);
      return { record: read(item) };
    } catch (err) {
      return { reason: reason(err) };
    }
  };
  const items = yield* decodeItems(list, readOne, TICKERS_PER_TURN, memory, context);
  const tickers = new KeyedRecords<TickerRecord>((t) => t.symbol, sameTicker);
  const issues: RecordIssue[] = [];
  items.forEach((got, index) => {
    if (!('record' in got)) issues.push({ entity: 'ticker', index, reason: got.reason });
    else if (tickers.add(got.record) === 'conflict') issues.push({ entity: 'ticker', symbol: got.record.symbol, index, reason: 'symbol appears twice with different values' });
  });
  return { records: tickers.taken(), issues };
}

/** A flag sent as one of two documented values; anything else (absent included) fails the record: unknown is never closed. */
export function flagOf(o: Json, key: string, open: unknown, closed: unknown): boolean {
  const v = o[key];
  if (v === open) return true;
  if (v === closed) return false;
  throw new FieldError(v === undefined || v === null ? `${key} is missing` : `${key} is not ${JSON.stringify(open)} or ${JSON.stringify(closed)}`);
}
