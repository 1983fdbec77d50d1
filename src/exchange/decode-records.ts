/**
 * The loop every list decode runs (spot-v3's coins and tickers, and the mapped dialects'):
 * records read one by one, in parts (a yield after every `perTurn` records read afresh), a
 * malformed record an issue (its key set aside, never read as closed), a key sent twice
 * resolved by KeyedRecords (duplicates.ts), and work that follows change:
 * - a record whose text is that of a record of the last answer (lib/record-memory.ts) is what
 *   it was decoded to then: neither parsed nor read again;
 * - the dialect's `read` may give back the previous record when the raw record holds exactly
 *   what it holds, so the merge, the diff and the state store skip it by identity.
 * A dialect gives only how one record is keyed and read.
 *
 * The signed dialects' loops (decode-list.ts: the issues those dialects always said) and OKX's
 * rows (decodeItems: a coin is built from several rows) take the memory's records the same
 * way, through recalled, rawOf and remember.
 */
import type { RecordIssue } from '../snapshot/model';
import { RecordMemory, Remembered } from '../lib/record-memory';
import { KeyedRecords } from './duplicates';
import { FieldError, isObject, reason, shapeOf, type Json, type Parsed } from './read';

/** How one list's records are keyed and read. */
export interface RecordReader<R> {
  readonly entity: 'coin' | 'ticker';
  /** The key of a raw record, when it has a usable one (for the issue of one that fails, and to find its previous record). */
  key(item: unknown): string | undefined;
  /**
   * The record of a raw object (`key` as above), or `before` (the previous record of its key)
   * when the raw object holds exactly what it holds. Issues of its parts (a coin's networks) go
   * to `own`. Throws FieldError for a malformed record.
   */
  read(item: Json, key: string | undefined, before: R | undefined, own: RecordIssue[]): R;
  /** Whether two records are the same (duplicates that agree are one record). */
  same(a: R, b: R): boolean;
  /** Records read afresh per turn of the event loop. */
  readonly perTurn: number;
  /** Whether the issues of a record's parts are reported when the record itself then fails (mapped: they say why). */
  readonly partIssuesOfFailed: boolean;
}

/** What a remembered record was decoded to, and under which context (an answer's own time: a ticker read under another time is another record). */
export interface Decoded<R> {
  record: R;
  context: unknown;
}

/** The memory of one request's records (see lib/record-memory.ts), as the client keeps it per request path. */
export type AnswerMemory = RecordMemory<Decoded<unknown>>;

/** A new, empty memory for one request path. */
export function answerMemory(): AnswerMemory {
  return new RecordMemory<Decoded<unknown>>();
}

const FIELD_OF = { coin: 'coin', ticker: 'symbol' } as const;
const TWICE = { coin: 'coin appears twice in the list with different values', ticker: 'symbol appears twice in the list with different values' } as const;

/**
 * The records of `list` (raw records, or the memory's Remembered ones the parse put in their
 * place). `previous`: the records of the last snapshot by key; `context`: what reading depends
 * on beside the record (a remembered record decoded under another context is read again).
 * With `memory`, every record read well without issues of its parts is remembered by its text,
 * and the memory is committed when the list is done.
 */
/** Coins, and tickers, read afresh per turn of the event loop by every dialect's decode. */
export const COINS_PER_TURN = 500;
export const TICKERS_PER_TURN = 1_000;

export function* decodeRecords<R extends object>(
  reader: RecordReader<R>,
  list: readonly unknown[],
  previous: ReadonlyMap<string, R> | undefined,
  memory?: AnswerMemory,
  context: unknown = null,
): Generator<void, Parsed<R>, void> {
  const keyOf = keyOfRecord(reader);
  const records = new KeyedRecords<R>(keyOf, reader.same);
  const issues: RecordIssue[] = [];
  const field = FIELD_OF[reader.entity];
  let fresh = 0;
  for (let index = 0; index < list.length; index++) {
    if (fresh >= reader.perTurn) {
      fresh = 0;
      yield;
    }
    const known = recalled<R>(list[index], context, memory);
    if (known !== undefined) {
      if (records.add(known) === 'conflict') issues.push(twice(reader, field, keyOf(known), index));
      continue;
    }
    const item = rawOf(list[index], memory);
    const key = reader.key(item);
    const own: RecordIssue[] = [];
    try {
      if (!isObject(item)) throw new FieldError(`${reader.entity} is ${shapeOf(item)}, not an object`);
      const before = key === undefined ? undefined : previous?.get(key);
      const record = reader.read(item, key, before, own);
      if (record !== before) fresh += 1;
      if (own.length === 0) remember(memory, item, record, context);
      const copy = records.add(record, own);
      if (copy === 'first') issues.push(...own);
      else if (copy === 'conflict') issues.push(twice(reader, field, key, index));
    } catch (err) {
      const issue: RecordIssue = { entity: reader.entity, index, reason: reason(err) };
      if (key !== undefined) {
        issue[field] = key;
        records.setAside(key);
      }
      if (reader.partIssuesOfFailed) issues.push(...own);
      issues.push(issue);
    }
  }
  memory?.commit();
  return { records: records.taken(), issues };
}

/**
 * What an item of a parsed list was decoded to, when the memory found its text unchanged since
 * the last answer (the parse put the memory's Remembered in its place) and it was decoded
 * under the same `context`: kept again for the next answer, and taken as it is. Undefined: the
 * item is to be read (rawOf).
 */
export function recalled<R>(item: unknown, context: unknown, memory: AnswerMemory | undefined): R | undefined {
  if (!(item instanceof Remembered)) return undefined;
  const known = item as Remembered<Decoded<R>>;
  if (known.value.context !== context) return undefined;
  memory?.keepAgain(known as Remembered<Decoded<unknown>>);
  return known.value.record;
}

/** An item of a parsed list as a raw record to read: a Remembered one (decoded under another context) parsed again from its text. */
export function rawOf(item: unknown, memory: AnswerMemory | undefined): unknown {
  if (!(item instanceof Remembered)) return item;
  const raw = item.parse();
  memory?.parsed(raw, item.text);
  return raw;
}

/**
 * `raw`, read afresh, decoded to `record` under `context`: remembered by its text for the next
 * answer. Only what depends on nothing but the text and the context may be remembered (not a
 * record read with the help of its previous one, as a coin with a network set aside).
 */
export function remember(memory: AnswerMemory | undefined, raw: unknown, record: unknown, context: unknown): void {
  if (memory !== undefined && typeof raw === 'object' && raw !== null) memory.keep(raw, { record, context });
}

/**
 * Each item of `list` read by `read`, through the memory as decodeRecords reads records: for a
 * list whose records are built from several items each (OKX sends a row per coin and chain),
 * where the item is what is remembered and the records are built after. `read` never throws
 * (a malformed item reads as what says so) and depends on the item's text and `context` alone.
 */
export function* decodeItems<V>(list: readonly unknown[], read: (item: unknown) => V, perTurn: number, memory?: AnswerMemory, context: unknown = null): Generator<void, V[], void> {
  const out: V[] = [];
  let fresh = 0;
  for (let index = 0; index < list.length; index++) {
    const known = recalled<V>(list[index], context, memory);
    if (known !== undefined) {
      out.push(known);
      continue;
    }
    if (fresh >= perTurn) {
      fresh = 0;
      yield;
    }
    fresh += 1;
    const item = rawOf(list[index], memory);
    const value = read(item);
    remember(memory, item, value, context);
    out.push(value);
  }
  memory?.commit();
  return out;
}

function twice<R>(reader: RecordReader<R>, field: 'coin' | 'symbol', key: string | undefined, index: number): RecordIssue {
  return { entity: reader.entity, ...(key !== undefined && { [field]: key }), index, reason: TWICE[reader.entity] };
}

/** The key a record is held by: its `coin` or `symbol` field. */
function keyOfRecord<R>(reader: RecordReader<R>): (record: R) => string {
  const field = FIELD_OF[reader.entity];
  return (record) => (record as Record<string, string>)[field] as string;
}
