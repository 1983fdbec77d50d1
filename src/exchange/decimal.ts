/**
 * Exact decimal text. The spec carries decimals as strings, except `withdrawIntegerMultiple`,
 * a JSON number that may use exponent notation (`1E-8`); JSON.parse would turn it into a
 * float and lose its text. Before parsing, every bare number under a decimal key is quoted,
 * so the value keeps exactly the characters the exchange sent.
 */

import { parseRecordsInTurns } from '../lib/json-records';
import { nextTurn } from '../lib/timer';

/** Keys whose values are decimals, in a network (spec section 2.2) and in a ticker (2.3). */
export const NETWORK_DECIMAL_KEYS = ['withdrawIntegerMultiple', 'withdrawFee', 'withdrawMin', 'withdrawInternalMin', 'depositDust'] as const;
export const TICKER_DECIMAL_KEYS = [
  'priceChange', 'priceChangePercent', 'lastPrice', 'bidPrice', 'bidQty', 'askPrice', 'askQty',
  'openPrice', 'highPrice', 'lowPrice', 'volume', 'quoteVolume',
] as const;
export const DECIMAL_KEYS = [...NETWORK_DECIMAL_KEYS, ...TICKER_DECIMAL_KEYS] as const;

/** A JSON number (RFC 8259 grammar) under one of the keys. */
function bareDecimal(keys: readonly string[]): RegExp {
  return new RegExp(
    `"(${keys.join('|')})"(\\s*:\\s*)(-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)(?=\\s*[,}\\]])`,
    'g',
  );
}

/** Per answer, only its own keys: a shorter alternation is a faster scan of a large body. */
const BARE_DECIMAL = { coins: bareDecimal(NETWORK_DECIMAL_KEYS), tickers: bareDecimal(TICKER_DECIMAL_KEYS), any: bareDecimal(DECIMAL_KEYS) };

/**
 * JSON.parse, with the numbers under decimal keys turned into strings holding their exact
 * text: the keys of the given answer (numbers under other keys are left as numbers), or of
 * both.
 */
export function parseJsonKeepingDecimals(text: string, answer: 'coins' | 'tickers' | 'any' = 'any'): unknown {
  return JSON.parse(text.replace(BARE_DECIMAL[answer], '"$1"$2"$3"'));
}

/**
 * parseJsonKeepingDecimals, record by record, with turns of the event loop in between (see
 * lib/json-records.ts): a storm's 4 MB coin list parsed at once held the loop 40-60 ms.
 */
export function parseJsonKeepingDecimalsInTurns(text: string, answer: 'coins' | 'tickers' | 'any' = 'any'): Promise<unknown> {
  const bare = BARE_DECIMAL[answer];
  return parseRecordsInTurns(
    text,
    (record) => JSON.parse(record.replace(bare, '"$1"$2"$3"')),
    (whole) => parseJsonKeepingDecimals(whole, answer),
    nextTurn,
  );
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
