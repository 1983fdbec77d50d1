/**
 * The loop every dialect's decode shares: read each item of a list into a record, a malformed
 * item an issue (its key set aside, never read as closed), a key sent twice resolved by
 * KeyedRecords (duplicates.ts). A dialect gives only how one item becomes a record.
 */
import { sameCoin, sameTicker } from '../snapshot/merge';
import type { CoinRecord, RecordIssue, TickerRecord } from '../snapshot/model';
import { KeyedRecords } from './duplicates';
import { FieldError, isObject, reason, shapeOf, type Json, type Parsed } from './read';

/** The coins of a list: `key` names the coin of a raw item (for the issue of one that fails). */
export function decodeCoinList(list: readonly unknown[], key: (item: unknown) => string | undefined, read: (item: Json) => CoinRecord): Parsed<CoinRecord> {
  const coins = new KeyedRecords<CoinRecord>((c) => c.coin, sameCoin);
  const issues: RecordIssue[] = [];
  list.forEach((item, index) => {
    try {
      if (!isObject(item)) throw new FieldError(`coin is ${shapeOf(item)}, not an object`);
      const record = read(item);
      if (coins.add(record) === 'conflict') issues.push({ entity: 'coin', coin: record.coin, index, reason: 'coin appears twice with different values' });
    } catch (err) {
      const coin = key(item);
      if (coin !== undefined) coins.setAside(coin);
      issues.push({ entity: 'coin', ...(coin !== undefined && { coin }), index, reason: reason(err) });
    }
  });
  return { records: coins.taken(), issues };
}

/** The tickers of a list. */
export function decodeTickerList(list: readonly unknown[], read: (item: Json) => TickerRecord): Parsed<TickerRecord> {
  const tickers = new KeyedRecords<TickerRecord>((t) => t.symbol, sameTicker);
  const issues: RecordIssue[] = [];
  list.forEach((item, index) => {
    try {
      if (!isObject(item)) throw new FieldError(`ticker is ${shapeOf(item)}, not an object`);
      const record = read(item);
      if (tickers.add(record) === 'conflict') issues.push({ entity: 'ticker', symbol: record.symbol, index, reason: 'symbol appears twice with different values' });
    } catch (err) {
      issues.push({ entity: 'ticker', index, reason: reason(err) });
    }
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
