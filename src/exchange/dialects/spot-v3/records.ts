/**
 * How spot-v3 reads a record: each model field from the wire field of the same name, by the
 * field's type in its field list (snapshot/fields.ts), and when a raw record is exactly what a
 * previous record holds (the reuse of unchanged records). Both are compiled from the field
 * lists (see lib/compile.ts), so a field added there is read and compared here without a line
 * of its own.
 */
import { compile, literal, prop } from '../../../lib/compile';
import { fieldsOf, type FieldSpec } from '../../../snapshot/fields';
import { bool, dec, FieldError, int, requiredBool, requiredStr, sameDecimal, sameFlag, sameInt, sameText, str, type Json } from '../../read';

/** How one record type is read and compared. */
export interface RecordCodec<R> {
  /**
   * The record, read field by field in the list's order (the order of its keys in the model).
   * `parent`: the key of the record it belongs to; `networkList`: a coin's networks, read
   * already. Throws FieldError.
   */
  read(o: Json, parent: string, networkList?: unknown[]): R;
  /** True when reading `o` would give exactly `held` (so `held` can be taken as it is). */
  same(o: Json, held: R): boolean;
}

function requiredDec(o: Json, key: string): string {
  const v = dec(o, key);
  if (v === null) throw new FieldError(`${key} is missing`);
  return v;
}

/** Every network's flag `of` in `networks` (an expression), as a coin's flag is derived when absent. */
function everyNetwork(networks: string, of: string): string {
  return `${networks}.every((n) => ${prop('n', of)} === true)`;
}

/** The expression reading field `key` from the raw object `o`. */
function readExpr(key: string, f: FieldSpec): string {
  const k = literal(key);
  switch (f.type) {
    case 'key':
      return `requiredStr(o, ${k})`;
    case 'parent':
      // Repeats the parent, which keys the record: checked, never taken.
      return `(str(o, ${k}, false), parent)`;
    case 'text':
      return `str(o, ${k}, false)`;
    case 'flag':
      if (f.absent === 'required') return `requiredBool(o, ${k})`;
      if (f.absent === 'false') return `(bool(o, ${k}, false) ?? false)`;
      if (f.absent === 'null') return `bool(o, ${k}, false)`;
      return `(bool(o, ${k}, false) ?? ${everyNetwork('networkList', f.absent.every)})`;
    case 'decimal':
      return f.absent === 'required' ? `requiredDec(o, ${k})` : `dec(o, ${k})`;
    case 'int':
      return `int(o, ${k})`;
    case 'networks':
      return 'networkList';
  }
}

/**
 * The expression that is true when raw field `key` of `o` reads as exactly what `h` holds:
 * only the plain cases (see exchange/read.ts), so a reused record is always the one read.
 */
function sameExpr(key: string, f: FieldSpec, networksKey: string | undefined): string {
  const v = prop('o', key);
  const h = prop('h', key);
  switch (f.type) {
    case 'key':
      // The record was looked up by this key: the same key is the same text.
      return `${v} === ${h}`;
    case 'parent':
      return `(typeof ${v} === 'string' || ${v} == null)`;
    case 'text':
      return `sameText(${v}, ${h})`;
    case 'flag':
      if (f.absent === 'required') return `(${v} != null && sameFlag(${v}, ${h}))`;
      if (f.absent === 'false') return `(${v} == null ? ${h} === false : sameFlag(${v}, ${h}))`;
      if (f.absent === 'null') return `sameFlag(${v}, ${h})`;
      return `(${v} == null ? ${h} === ${everyNetwork(prop('h', networksKey ?? ''), f.absent.every)} : sameFlag(${v}, ${h}))`;
    case 'decimal':
      return `sameDecimal(${v}, ${h})`;
    case 'int':
      return `sameInt(${v}, ${h})`;
    case 'networks':
      return `sameNetworks(${v}, ${h})`;
  }
}

/**
 * The codec of a field list. `sameNetworks(raw, held)` compares a coin's raw networkList with
 * its held networks (for a list with a `networks` field).
 */
export function codecOf<R>(name: string, list: Record<string, FieldSpec>, sameNetworks?: (raw: unknown, held: unknown) => boolean): RecordCodec<R> {
  const fields = fieldsOf(list);
  const networksKey = fields.find(([, f]) => f.type === 'networks')?.[0];
  const scope = { bool, dec, int, requiredBool, requiredDec, requiredStr, str, sameDecimal, sameFlag, sameInt, sameText, sameNetworks };
  const read = compile<RecordCodec<R>['read']>(`read${name}`, ['o', 'parent', 'networkList'], `return {\n${fields.map(([k, f]) => `  ${literal(k)}: ${readExpr(k, f)},`).join('\n')}\n};`, scope);
  // Cheapest first would be a guess; the list's order keeps the compiled text easy to check.
  const same = compile<RecordCodec<R>['same']>(`same${name}AsRaw`, ['o', 'h'], `return ${fields.map(([k, f]) => sameExpr(k, f, networksKey)).join('\n  && ')};`, scope);
  return { read, same };
}
