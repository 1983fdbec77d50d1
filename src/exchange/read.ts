/**
 * Reading parsed answers, field by field, for every dialect's decode. Fields are copied by
 * name into fresh objects, so keys like `__proto__` in the input reach nothing; a field that
 * fails is a FieldError that names the field, never its (untrusted) value. Hand-written
 * rather than a schema library because decoding runs on every poll over ~8,000 networks and
 * must stay close to the cost of JSON.parse. Every string is read through `str` or `keyOf`, the
 * one place upstream text enters: made well-formed and cut to UPSTREAM_TEXT_MAX characters
 * (lib/upstream-text.ts); decimals are read by their own readers, which accept only digits.
 */
import { upstreamText } from '../lib/upstream-text';
import type { RecordIssue } from '../snapshot/model';
import { readDecimal } from './decimal-text';

/** A decoded answer: the records read well, and the ones set aside. */
export interface Parsed<T> {
  records: T[];
  issues: RecordIssue[];
}

/** Thrown for an answer whose overall shape is wrong (not a list, an error envelope...). */
export class ShapeError extends Error {
  override readonly name = 'ShapeError';
}

/** One field of one record failed: the record is set aside, the rest of the answer is read. */
export class FieldError extends Error {
  override readonly name = 'FieldError';
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How a value is named in a message: its kind, never its content. */
export function shapeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The reason of a FieldError; any other error is a bug and goes on. */
export function reason(err: unknown): string {
  if (err instanceof FieldError) return err.message;
  throw err;
}

/** A record's key, when it has a usable one (for the issue of a record that failed). */
export function keyOf(o: unknown, key: string): string | undefined {
  if (!isObject(o)) return undefined;
  const v = o[key];
  return typeof v === 'string' && v !== '' ? upstreamText(v) : undefined;
}

/** A string, well-formed and cut as upstreamText does; null when absent. */
export function str(o: Json, key: string): string | null {
  const v = o[key];
  if (typeof v === 'string') return upstreamText(v);
  if (v === undefined || v === null) return null;
  throw new FieldError(`${key} is not a string`);
}

/** A non-empty string. */
export function requiredStr(o: Json, key: string): string {
  const v = str(o, key);
  if (v === null || v === '') throw new FieldError(`${key} is missing`);
  return v;
}

/** A boolean, also when sent as the text `true` or `false`; null when absent. */
export function bool(o: Json, key: string): boolean | null {
  const v = o[key];
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === undefined || v === null) return null;
  throw new FieldError(`${key} is not a boolean`);
}

export function requiredBool(o: Json, key: string): boolean {
  const v = bool(o, key);
  if (v === null) throw new FieldError(`${key} is missing`);
  return v;
}

/** A decimal's exact text (see readDecimal); null when absent or empty. */
export function dec(o: Json, key: string): string | null {
  const v = readDecimal(o[key]);
  if (v === undefined) {
    if (o[key] === undefined) return null;
    throw new FieldError(`${key} is not a decimal`);
  }
  return v;
}

/** A decimal the record cannot do without (a ticker's last price). */
export function requiredDec(o: Json, key: string): string {
  const v = dec(o, key);
  if (v === null) throw new FieldError(`${key} is missing`);
  return v;
}

/** An integer, also when sent as a string of at most 15 digits. */
export function int(o: Json, key: string): number | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d{1,15}$/.test(v)) return Number(v);
  throw new FieldError(`${key} is not an integer`);
}
