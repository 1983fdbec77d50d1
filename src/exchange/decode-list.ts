/**
 * The loop every list decode runs (spot-v3's coins and tickers, the mapped dialects'): records
 * read one by one, a malformed record an issue (its key set aside, never read as closed), a key
 * sent twice resolved by KeyedRecords (duplicates.ts), and a record equal to its previous one
 * given back as the previous object (the merge, the diff and the state store skip it by
 * identity). A dialect gives only how one record is keyed and read.
 */
import type { RecordIssue } from '../snapshot/model';
import { KeyedRecords } from './duplicates';
import { FieldError, isObject, reason, shapeOf, type Json, type Parsed } from './read';

/** How one list's records are keyed and read. */
export interface ListReader<R> {
  readonly entity: 'coin' | 'ticker';
  /**
   * The key of a raw record, when it has a usable one: its previous record is looked up by it,
   * and a record that fails is set aside under it (undefined: an issue without a key).
   */
  key(item: unknown): string | undefined;
  /**
   * The record of a raw object (`key` as above; `before` its previous record). Issues of its
   * parts (a coin's networks) go to `parts`: they are said before the record's own issue, and
   * of the copies of a key sent twice only the first's. Throws FieldError for a malformed record.
   */
  read(item: Json, key: string | undefined, before: R | undefined, parts: RecordIssue[]): R;
  /** Whether two records are the same (duplicates that agree are one record; an unchanged one is its previous object). */
  same(a: R, b: R): boolean;
  /** The reason of the issue of a key sent twice with different values. */
  readonly twice: string;
}

const FIELD_OF = { coin: 'coin', ticker: 'symbol' } as const;

/** The records of `list`, raw records read by `reader`; `previous`: the last snapshot's records by key. */
export function decodeList<R extends object>(reader: ListReader<R>, list: readonly unknown[], previous?: ReadonlyMap<string, R>): Parsed<R> {
  const field = FIELD_OF[reader.entity];
  const keyOf = (record: R): string => (record as Record<string, unknown>)[field] as string;
  const records = new KeyedRecords<R>(keyOf, reader.same);
  const issues: RecordIssue[] = [];
  for (let index = 0; index < list.length; index++) {
    const item = list[index];
    const key = reader.key(item);
    const parts: RecordIssue[] = [];
    try {
      if (!isObject(item)) throw new FieldError(`${reader.entity} is ${shapeOf(item)}, not an object`);
      const before = key === undefined ? undefined : previous?.get(key);
      const read = reader.read(item, key, before, parts);
      const record = before !== undefined && reader.same(before, read) ? before : read;
      const copy = records.add(record, parts);
      if (copy === 'first') issues.push(...parts);
      else if (copy === 'conflict') issues.push({ entity: reader.entity, [field]: keyOf(record), index, reason: reader.twice });
    } catch (err) {
      if (key !== undefined) records.setAside(key);
      issues.push(...parts, { entity: reader.entity, ...(key !== undefined && { [field]: key }), index, reason: reason(err) });
    }
  }
  return { records: records.taken(), issues };
}
