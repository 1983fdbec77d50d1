/**
 * What every notice source's decode shares: JSON in, a NoticeError out for anything else, and
 * times in each form the exchanges send them (numbers or strings of milliseconds, `""` for none,
 * ISO 8601). Text enters through exchange/read.ts's `str`, well-formed and capped.
 */
import { createHash } from 'node:crypto';
import { FieldError, isObject, shapeOf, ShapeError, str, type Json } from '../../exchange/read';
import { NoticeError } from '../source';

/** `body` as JSON, decoded by `read`; whatever does not fit is a `schema` NoticeError of `source`. */
export function decodeJson<T>(source: string, body: string, read: (json: unknown) => T): T {
  let json: unknown;
  try {
    json = JSON.parse(body) as unknown;
  } catch {
    throw new NoticeError('schema', source, `${source}: answer is not valid JSON (${body.length} characters)`);
  }
  try {
    return read(json);
  } catch (err) {
    if (err instanceof FieldError || err instanceof ShapeError) throw new NoticeError('schema', source, `${source}: ${err.message}`);
    throw err;
  }
}

/** The error answer of `source`: its success marker was not there (code and message, cut). */
export function errorAnswer(source: string, body: Json, codeKey: string, msgKey: string): NoticeError {
  const code = body[codeKey];
  const msg = typeof body[msgKey] === 'string' ? str(body, msgKey) : null;
  const codeText = typeof code === 'string' || typeof code === 'number' ? String(code).slice(0, 32) : shapeOf(code);
  return new NoticeError('error_answer', source, `${source}: error answer, ${codeKey} ${codeText}${msg ? `: ${msg.slice(0, 200)}` : ''}`);
}

/** An object, or a ShapeError naming what was expected. */
export function object(value: unknown, what: string): Json {
  if (isObject(value)) return value;
  throw new ShapeError(`${what}: expected an object, got ${shapeOf(value)}`);
}

/** A list (`null` is an empty one, as Statuspage sends it), or a ShapeError. */
export function list(value: unknown, what: string, nullIsEmpty = false): unknown[] {
  if (Array.isArray(value)) return value;
  if (nullIsEmpty && (value === null || value === undefined)) return [];
  throw new ShapeError(`${what}: expected a list, got ${shapeOf(value)}`);
}

/** Each record of a list as an object, or a ShapeError. */
export function records(value: unknown, what: string, nullIsEmpty = false): Json[] {
  return list(value, what, nullIsEmpty).map((r) => object(r, `${what} record`));
}

/** Milliseconds sent as a number or a string of digits; null when absent, null or `""`. */
export function msTime(o: Json, key: string): number | null {
  const v = o[key];
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\d{1,15}$/.test(v)) return Number(v);
  throw new FieldError(`${key} is not a time in milliseconds`);
}

export function requiredMsTime(o: Json, key: string): number {
  const v = msTime(o, key);
  if (v === null) throw new FieldError(`${key} is missing`);
  return v;
}

/** An ISO 8601 time with its offset (Statuspage); null when absent, null or `""`. */
export function isoTime(o: Json, key: string): number | null {
  const v = o[key];
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/.test(v)) {
    const t = Date.parse(v);
    if (Number.isFinite(t)) return t;
  }
  throw new FieldError(`${key} is not an ISO 8601 time`);
}

/** A text; `""` and absent are null. */
export function text(o: Json, key: string): string | null {
  const v = str(o, key);
  return v === '' ? null : v;
}

/** A text the record cannot do without. */
export function requiredText(o: Json, key: string): string {
  const v = text(o, key);
  if (v === null) throw new FieldError(`${key} is missing`);
  return v;
}

/** A code sent as a number or a string (`"1"` and `1` alike), as text; null when absent or `""`. */
export function code(o: Json, key: string): string | null {
  const v = o[key];
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v === 'string' && /^-?\d{1,15}$/.test(v)) return String(Number(v));
  throw new FieldError(`${key} is not a code`);
}

/** A list of integer codes (Bybit's `serviceTypes`, `product`); absent or null is empty. */
export function codes(o: Json, key: string): number[] {
  const v = o[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new FieldError(`${key} is not a list`);
  return v.map((c) => {
    if (typeof c === 'number' && Number.isSafeInteger(c)) return c;
    if (typeof c === 'string' && /^\d{1,9}$/.test(c)) return Number(c);
    throw new FieldError(`${key} holds a value that is not a code`);
  });
}

/** The value of query parameter `name` in a request path (`/x?annType=T&page=1`). */
export function queryOf(path: string, name: string): string | null {
  const q = path.indexOf('?');
  return q < 0 ? null : new URLSearchParams(path.slice(q + 1)).get(name);
}

/** A stable id from parts (a window the source sends without one): the same parts, the same id, across restarts. */
export function stableId(prefix: string, parts: readonly string[]): string {
  return `${prefix}-${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16)}`;
}

/** Origins by the 1/2/3 code OKX (`maintType`) and Bybit (`maintainType`) share. */
export function originOf(c: string | null): 'planned' | 'unplanned' | 'incident' | 'unknown' {
  if (c === '1') return 'planned';
  if (c === '2') return 'unplanned';
  if (c === '3') return 'incident';
  return 'unknown';
}

/**
 * What a service's name, or a window's title, says it is: `funding` (deposits, withdrawals,
 * wallets, funding, or a coin's own name: `Bitcoin (BTC)`), `trading` (spot, orders, matching, margin, futures), `api` (the API, WebSocket), else
 * `other`. For a Statuspage's components, and for a window whose source's own codes say nothing
 * (OKX `serviceType` 99 "others", Bybit with no `serviceTypes`: neither has a code for funding).
 */
export function serviceOf(name: string): 'funding' | 'trading' | 'api' | 'other' {
  if (/deposit|withdraw|wallet|funding/i.test(name)) return 'funding';
  // A coin's own component ("Bitcoin (BTC)", "USDT"): its wallet, as exchanges' pages list them.
  if (/\([A-Z][A-Z0-9]{1,11}\)\s*$|^\s*[A-Z][A-Z0-9]{1,11}\s*$/.test(name)) return 'funding';
  if (/trad|\bspot\b|\border|match|margin|futures|perpetual|derivative/i.test(name)) return 'trading';
  if (/\bapi\b|websocket/i.test(name)) return 'api';
  return 'other';
}

/** A window's scope from its title when its source's codes say nothing: funding when the title says so, else unknown. */
export function titleScope(title: string): 'funding' | 'unknown' {
  return serviceOf(title) === 'funding' ? 'funding' : 'unknown';
}
