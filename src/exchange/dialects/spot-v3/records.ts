/**
 * How spot-v3 reads a record, and when a raw record is exactly what a previous record holds:
 * each model field from the wire field of the same name, by the field's type in its field list
 * (snapshot/fields.ts), so a field added there is read and compared here without a line of its
 * own. One reader and one comparer per field, made once; a record is read (or compared) by a
 * loop over them (measured at 4,000 coins: 5.8 ms to read the coin list's records and 2.7 ms
 * the tickers', against 3.9 and 2.0 ms hand-written: under 2 % of a poll cycle, for code that
 * cannot disagree with the lists).
 */
import { UPSTREAM_TEXT_MAX, upstreamText } from '../../../lib/upstream-text';
import { fieldsOf, type Absent, type FieldSpec } from '../../../snapshot/fields';
import type { NetworkRecord } from '../../../snapshot/model';
import { bool, dec, int, requiredBool, requiredDec, requiredStr, str, type Json } from '../../read';

/** One field of a raw record: `parent` the key of the record it belongs to, `networks` a coin's networks, read already. */
type FieldReader = (o: Json, parent: string, networks: readonly NetworkRecord[]) => unknown;

/** Whether one raw field reads as exactly what a record holds (`held`: the record, as its fields by name). */
type FieldSame = (o: Json, held: Readonly<Record<string, unknown>>) => boolean;

function flagReader(key: string, absent: Absent): FieldReader {
  if (absent === 'required') return (o) => requiredBool(o, key);
  if (absent === 'false') return (o) => bool(o, key) ?? false;
  if (absent === 'null') return (o) => bool(o, key);
  // A coin's flag the exchange leaves out: true iff every one of its networks' is.
  const of = absent.every as keyof NetworkRecord;
  return (o, _parent, networks) => bool(o, key) ?? networks.every((n) => n[of] === true);
}

function fieldReader(key: string, f: FieldSpec): FieldReader {
  switch (f.type) {
    case 'key':
      return (o) => requiredStr(o, key);
    case 'parent':
      // Repeats the parent, which keys the record: checked, never taken.
      return (o, parent) => {
        str(o, key);
        return parent;
      };
    case 'text':
      return (o) => str(o, key);
    case 'flag':
      return flagReader(key, f.absent);
    case 'decimal':
      return f.absent === 'required' ? (o) => requiredDec(o, key) : (o) => dec(o, key);
    case 'int':
      return (o) => int(o, key);
    case 'networks':
      return (_o, _parent, networks) => networks;
  }
}

/**
 * The reader of a field list: the record, read field by field in the list's order (the order of
 * its keys in the model). `parent`: the key of the record it belongs to; `networks`: a coin's
 * networks, read already. Throws FieldError at the first field that fails.
 */
export function readerOf<R>(list: Record<string, FieldSpec>): (o: Json, parent: string, networks?: readonly NetworkRecord[]) => R {
  const fields = fieldsOf(list).map(([key, f]) => [key, fieldReader(key, f)] as const);
  return (o, parent, networks = []) => {
    const record: Record<string, unknown> = {};
    for (const [key, read] of fields) record[key] = read(o, parent, networks);
    return record as R;
  };
}

/*
 * A raw value against the value a record holds: true only in the plain cases where reading the
 * raw value gives exactly the held one (a string that is the same string, a boolean that is the
 * same boolean, null or absent for null). Anything else answers false and is read, so a record
 * taken for its previous one is always the one reading would give.
 */

/**
 * Text is read through upstreamText: a text within the cap is the same string when it is already
 * well-formed (one that is not never equals a held, well-formed one, and is read); a longer one
 * is compared as it is cut.
 */
function sameText(v: unknown, old: unknown): boolean {
  if (typeof v !== 'string') return v == null && old === null;
  return v.length <= UPSTREAM_TEXT_MAX ? v === old : upstreamText(v) === old;
}

/** As sameText, for a decimal (an empty string reads as null, a number as its shortest text). */
function sameDecimal(v: unknown, old: unknown): boolean {
  if (typeof v === 'string') return v === '' ? old === null : v === old;
  if (typeof v === 'number') return old !== null && String(v) === old;
  return v == null && old === null;
}

function sameFlag(v: unknown, old: unknown): boolean {
  if (typeof v === 'boolean') return v === old;
  if (v === 'true' || v === 'false') return (v === 'true') === old;
  return v == null && old === null;
}

function sameInt(v: unknown, old: unknown): boolean {
  if (typeof v === 'number') return v === old;
  // int() reads at most 15 digits from a string.
  if (typeof v === 'string') return old !== null && v.length <= 15 && v === String(old);
  return v == null && old === null;
}

/** `sameNetworks(raw, held)`: a coin's raw networkList against the networks it holds. */
function fieldSame(key: string, f: FieldSpec, sameNetworks: (raw: unknown, held: unknown) => boolean, networksKey: string): FieldSame {
  switch (f.type) {
    case 'key':
      // The record was looked up by this key: the same key is the same text (a key past the cap is read).
      return (o, h) => o[key] === h[key] && (o[key] as string).length <= UPSTREAM_TEXT_MAX;
    case 'parent':
      return (o) => typeof o[key] === 'string' || o[key] == null;
    case 'text':
      return (o, h) => sameText(o[key], h[key]);
    case 'flag': {
      const absent = f.absent;
      if (absent === 'required') return (o, h) => o[key] != null && sameFlag(o[key], h[key]);
      if (absent === 'false') return (o, h) => (o[key] == null ? h[key] === false : sameFlag(o[key], h[key]));
      if (absent === 'null') return (o, h) => sameFlag(o[key], h[key]);
      const of = absent.every as keyof NetworkRecord;
      return (o, h) => (o[key] == null ? h[key] === (h[networksKey] as readonly NetworkRecord[]).every((n) => n[of] === true) : sameFlag(o[key], h[key]));
    }
    case 'decimal':
      return (o, h) => sameDecimal(o[key], h[key]);
    case 'int':
      return (o, h) => sameInt(o[key], h[key]);
    case 'networks':
      return (o, h) => sameNetworks(o[key], h[key]);
  }
}

/**
 * The comparer of a field list: true when reading `o` would give exactly `held` (so `held` can
 * be taken as it is, without reading). `sameNetworks` compares a coin's raw networkList with its
 * held networks (for a list with a `networks` field).
 */
export function sameAsRawOf<R extends object>(list: Record<string, FieldSpec>, sameNetworks: (raw: unknown, held: unknown) => boolean = () => false): (o: Json, held: R) => boolean {
  const networksKey = fieldsOf(list).find(([, f]) => f.type === 'networks')?.[0] ?? '';
  const fields = fieldsOf(list).map(([key, f]) => fieldSame(key, f, sameNetworks, networksKey));
  return (o, held) => {
    for (const same of fields) if (!same(o, held as Readonly<Record<string, unknown>>)) return false;
    return true;
  };
}
