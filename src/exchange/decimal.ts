/**
 * Exact decimal text. Exchanges carry decimals as strings, or as JSON numbers that may use
 * exponent notation (the spec's `withdrawIntegerMultiple`: `1E-8`; HTX's tickers: `8988.0`);
 * JSON.parse would turn them into floats and lose their text. Before parsing, every bare
 * number under a decimal key is quoted, so the value keeps exactly the characters sent.
 */

import { parseRecordsInTurns } from '../lib/json-records';
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
   * pre-passed): the pre-pass runs on changed records only.
   */
  parseInTurns(text: string, memory?: RecordTexts): Promise<unknown>;
}

/**
 * JSON.parse, with the numbers under the given keys turned into strings holding their exact
 * text (numbers under other keys are left as numbers). A dialect gives the keys of one answer
 * only: a shorter alternation is a faster scan of a large body.
 */
export function exactDecimalJson(keys: readonly string[]): ExactDecimalJson {
  const bare = bareDecimal(keys);
  const parse = (text: string): unknown => JSON.parse(text.replace(bare, '"$1"$2"$3"'));
  return {
    parse,
    parseInTurns: (text, memory) => parseRecordsInTurns(text, parse, parse, nextTurn, memory),
  };
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
