/**
 * Exact decimal text. Exchanges carry decimals as strings, or as JSON numbers that may use
 * exponent notation (the spec's `withdrawIntegerMultiple`: `1E-8`; HTX's tickers: `8988.0`);
 * JSON.parse would turn them into floats and lose their text. Before parsing, every bare
 * number under a decimal key is quoted, so the value keeps exactly the characters sent (or,
 * where the runtime has it, JSON.parse's source text is taken: see DecimalWay).
 */

import { parseRecordsInTurns, type RecordsAt } from '../lib/json-records';
import type { RecordTexts } from '../lib/record-memory';
import { nextTurn } from '../lib/timer';

/** A JSON number (RFC 8259 grammar) under one of the keys. */
function bareDecimal(keys: readonly string[]): RegExp {
  return new RegExp(
    `"(${keys.join('|')})"(\\s*:\\s*)(-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)(?=\\s*[,}\\]])`,
    'g',
  );
}

/** JSON.parse for an answer whose decimals may come as bare numbers: see exactDecimalJson. */
export interface ExactDecimalJson {
  parse(text: string): unknown;
  /**
   * parse, record by record, with turns of the event loop in between (see
   * lib/json-records.ts): a storm's 4 MB coin list parsed at once held the loop 40-60 ms.
   * With `memory`, a record whose text is unchanged since the last answer is not parsed (nor
   * pre-passed): the pre-pass runs on changed records only. `at`: where the records are, when
   * not at the top or under `data` (Bybit's `result.rows`).
   */
  parseInTurns(text: string, memory?: RecordTexts, at?: RecordsAt): Promise<unknown>;
}

/**
 * How the exact text of a bare number is kept:
 * - `pre-pass`: every bare number under a decimal key is quoted by a regular expression before
 *   JSON.parse (any runtime);
 * - `source-text`: JSON.parse's reviver is handed each value's source text (V8's "JSON.parse
 *   source text access": Node 22 and later), and takes it for a number under a decimal key.
 * Both read every answer the same, but for a key written with an escape (`"f\u0065e"`): the
 * pre-pass does not see it and the number then reads as its shortest text (readDecimal), the
 * source text keeps its exact text.
 */
export type DecimalWay = 'pre-pass' | 'source-text';

/** Whether this runtime's JSON.parse hands a reviver the source text of each value (read once, at startup). */
export const HAS_SOURCE_TEXT: boolean = hasSourceText();

function hasSourceText(): boolean {
  let seen = false;
  JSON.parse('1', (_key: string, value: unknown, context?: { source?: unknown }) => {
    seen = typeof context?.source === 'string';
    return value;
  });
  return seen;
}

/**
 * The way used. Measured (notes/records.md): on Node 22.23 any reviver makes JSON.parse 6-9
 * times slower (4,000 coins: 21 ms plain, 150-210 ms with a reviver), far more than the
 * pre-pass costs (0.4-0.7 of a parse, and only on changed records), so the pre-pass stays on
 * every runtime until a reviver is cheap; the source text is there, tested to read the same.
 */
export const DECIMAL_WAY: DecimalWay = 'pre-pass';

/**
 * JSON.parse, with the numbers under the given keys turned into strings holding their exact
 * text (numbers under other keys are left as numbers). A dialect gives the keys of one answer
 * only: a shorter alternation is a faster scan of a large body. `way`: see DecimalWay; the
 * source text where the runtime has none is an error.
 */
export function exactDecimalJson(keys: readonly string[], way: DecimalWay = DECIMAL_WAY): ExactDecimalJson {
  const parse = way === 'pre-pass' ? prePassParse(keys) : sourceTextParse(keys);
  return {
    parse,
    parseInTurns: (text, memory, at) => parseRecordsInTurns(text, parse, parse, nextTurn, memory, at),
  };
}

/**
 * The pre-pass, where it is needed. A scan of the text for bare numbers under the keys costs
 * about what the parse costs, and most answers have none where they may (the spec's tickers
 * send every decimal as a string): the text is parsed first, and parsed again with the
 * pre-pass only when the parsed value has a number under one of the keys. Once a text had
 * some (the spec's coin list: `withdrawIntegerMultiple` is a bare number), this parser takes
 * the pre-pass first from then on. Either way the value is the pre-pass's, and an
 * answer that is not JSON fails with the pre-pass's error.
 */
function prePassParse(keys: readonly string[]): (text: string) => unknown {
  const bare = bareDecimal(keys);
  const decimal = new Set(keys);
  let bareSeen = false;
  const prePass = (text: string): unknown => {
    const quoted = text.replace(bare, '"$1"$2"$3"');
    // Kept once seen: a record without one, or an answer's skeleton, says nothing of the next record.
    if (quoted.length !== text.length) bareSeen = true;
    return JSON.parse(quoted);
  };
  return (text) => {
    if (bareSeen) return prePass(text);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return prePass(text);
    }
    return numberUnder(value, decimal) ? prePass(text) : value;
  };
}

/** Whether a number stands under one of `keys` anywhere in a parsed value (true when it cannot tell: too deep to walk). */
function numberUnder(value: unknown, keys: ReadonlySet<string>): boolean {
  try {
    return walkNumbers(value, keys);
  } catch {
    return true;
  }
}

function walkNumbers(value: unknown, keys: ReadonlySet<string>): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item === 'object' && item !== null && walkNumbers(item, keys)) return true;
    return false;
  }
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (typeof v === 'number') {
      if (keys.has(k)) return true;
    } else if (typeof v === 'object' && v !== null && walkNumbers(v, keys)) return true;
  }
  return false;
}

function sourceTextParse(keys: readonly string[]): (text: string) => unknown {
  if (!HAS_SOURCE_TEXT) throw new Error(`JSON.parse source text access needs Node 22 or later (this is ${process.version})`);
  const decimal = new Set(keys);
  const keep = (key: string, value: unknown, context?: { source?: string }): unknown => (typeof value === 'number' && decimal.has(key) ? context?.source : value);
  return (text) => JSON.parse(text, keep);
}

const DECIMAL_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** True when the text is a decimal number (optionally signed, optionally with an exponent). */
export function isDecimalText(text: string): boolean {
  return DECIMAL_TEXT.test(text);
}

/**
 * True when the decimal text, read as a number, stays finite. Only an exponent or more than
 * 308 digits can overflow, so the common short plain decimal costs no conversion.
 */
function finiteText(text: string): boolean {
  if (text.length <= 308 && !text.includes('e') && !text.includes('E')) return true;
  return Number.isFinite(Number(text));
}

/**
 * Normalises a decimal as received: a string holding a decimal stays exactly as it is; a
 * number that escaped the quoting (an escaped key, say) becomes its shortest text; an empty
 * string or null is "no value". Anything else is not a decimal (undefined), and neither is a
 * decimal too large for a number (`1e400`): every use of a value as a number (thresholds,
 * metrics, the price series) would read it as Infinity.
 */
export function readDecimal(value: unknown): string | null | undefined {
  if (value === null || value === '') return null;
  if (typeof value === 'string') return DECIMAL_TEXT.test(value) && finiteText(value) ? value : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
