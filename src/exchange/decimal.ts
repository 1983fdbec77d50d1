/**
 * Exact decimal text. The spec carries decimals as strings, except `withdrawIntegerMultiple`,
 * a JSON number that may use exponent notation (`1E-8`); JSON.parse would turn it into a
 * float and lose its text. Before parsing, every bare number under a decimal key is quoted,
 * so the value keeps exactly the characters the exchange sent.
 */

/** Keys whose values are decimals (spec sections 2.2 and 2.3). */
export const DECIMAL_KEYS = [
  'withdrawIntegerMultiple', 'withdrawFee', 'withdrawMin', 'withdrawInternalMin', 'depositDust',
  'priceChange', 'priceChangePercent', 'lastPrice', 'bidPrice', 'bidQty', 'askPrice', 'askQty',
  'openPrice', 'highPrice', 'lowPrice', 'volume', 'quoteVolume',
] as const;

/** A JSON number (RFC 8259 grammar) under one of the decimal keys. */
const BARE_DECIMAL = new RegExp(
  `"(${DECIMAL_KEYS.join('|')})"(\\s*:\\s*)(-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)(?=\\s*[,}\\]])`,
  'g',
);

/** JSON.parse, with the numbers under decimal keys turned into strings holding their exact text. */
export function parseJsonKeepingDecimals(text: string): unknown {
  return JSON.parse(text.replace(BARE_DECIMAL, '"$1"$2"$3"'));
}

const DECIMAL_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** True when the text is a decimal number (optionally signed, optionally with an exponent). */
export function isDecimalText(text: string): boolean {
  return DECIMAL_TEXT.test(text);
}

/**
 * Normalises a decimal as received: a string holding a decimal stays exactly as it is; a
 * number that escaped the quoting (an escaped key, say) becomes its shortest text; an empty
 * string or null is "no value". Anything else is not a decimal (undefined).
 */
export function readDecimal(value: unknown): string | null | undefined {
  if (value === null || value === '') return null;
  if (typeof value === 'string') return DECIMAL_TEXT.test(value) ? value : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
