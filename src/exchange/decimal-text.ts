/**
 * Exact decimal text. Exchanges carry decimals as strings, or as JSON numbers that may use
 * exponent notation (the spec's `withdrawIntegerMultiple`: `1E-8`; HTX's tickers: `8988.0`);
 * JSON.parse would turn them into floats and lose their text. Before parsing, every bare
 * number under a decimal key is quoted, so the value keeps exactly the characters sent.
 */

/** Thrown for an answer that is not JSON (the client's `invalid_json`); the message is JSON.parse's. */
export class InvalidJson extends SyntaxError {
  override readonly name = 'InvalidJson';
}

/** A JSON number (RFC 8259 grammar) under one of the keys. */
function bareDecimal(keys: readonly string[]): RegExp {
  return new RegExp(
    `"(${keys.join('|')})"(\\s*:\\s*)(-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)(?=\\s*[,}\\]])`,
    'g',
  );
}

/**
 * How often an answer carries a bare number under one of its decimal keys, as the exchange's
 * documentation (or its recorded answers) says: a static choice per answer, so a parser keeps
 * no state from one call to the next.
 * - `rare`: decimals come as strings (most exchanges): the text is parsed, and parsed again
 *   with the pre-pass only when the parsed value has a number under one of the keys. A scan of
 *   the text for bare numbers costs about what the parse costs, so an answer without one is
 *   not scanned.
 * - `usual`: the answer has them every time (spot-v3's coin list: `withdrawIntegerMultiple`
 *   is a JSON number; HTX's tickers, every value): the pre-pass at once, as parsing first
 *   would only add a parse.
 * Either way the value is the pre-pass's, and a text that is not JSON fails with its error.
 */
export type BareDecimals = 'rare' | 'usual';

/**
 * JSON.parse, with the numbers under the given keys turned into strings holding their exact
 * text (numbers under other keys are left as numbers): every bare number under a decimal key
 * is quoted by a regular expression before JSON.parse. A dialect gives the keys of one answer
 * only: a shorter alternation is a faster scan of a large body. (Node 22's JSON.parse hands a
 * reviver each value's source text, but any reviver makes its parse 6-9 times slower:
 * 150-210 ms against 21 ms for 4,000 coins, notes/records.md.) A key written with an escape
 * (`"f\u0065e":1E-8`) is not seen: its number reads as its shortest text (readDecimal).
 */
export function exactDecimalJson(keys: readonly string[], bare: BareDecimals = 'rare'): (text: string) => unknown {
  return bare === 'usual' ? prePass(keys) : parseFirst(keys);
}

/** JSON.parse, throwing InvalidJson for a text that is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new InvalidJson(err instanceof Error ? err.message : String(err));
  }
}

function prePass(keys: readonly string[]): (text: string) => unknown {
  const bare = bareDecimal(keys);
  return (text) => parseJson(text.replace(bare, '"$1"$2"$3"'));
}

/** The `rare` way (see BareDecimals): the pre-pass only when the parsed value shows it is needed. */
function parseFirst(keys: readonly string[]): (text: string) => unknown {
  const quoted = prePass(keys);
  const decimal = new Set(keys);
  return (text) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return quoted(text);
    }
    return numberUnder(value, decimal) ? quoted(text) : value;
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
