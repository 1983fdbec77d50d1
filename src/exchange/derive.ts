/**
 * What dialects.md section 1 lets a dialect derive from the fields an exchange sends (the coin
 * flags of rule 4 are dialects/families/mapped-decode.ts's): decimals (rule 3), spec-style
 * symbols (rule 6) and the 24 h window (rule 7).
 *
 * Derived decimals are the values an exchange does not send but that its other fields determine
 * exactly, computed on the decimal text with integer arithmetic (never through a float). Every
 * result is written in plain notation, without trailing zeros after the point or a trailing
 * point, `"0"` for zero (never `"-0"`), with a `0` before the point. A quotient is rounded half
 * away from zero to 8 decimal places. An input that is absent (null) or not a decimal derives
 * nothing (null): the field is then absent too, never a guess.
 */
import { isDecimalText } from './decimal-text';
import { FieldError } from './read';

/** A decimal as `digits × 10^-scale`. */
interface Exact {
  digits: bigint;
  scale: number;
}

/** Exponents beyond this are not prices: no derivation (null) rather than a huge BigInt. */
const MAX_EXPONENT = 400;

/** A decimal text as `digits × 10^-scale`; undefined when absent or not a decimal. */
function exactOf(text: string | null): Exact | undefined {
  if (text === null || !isDecimalText(text)) return undefined;
  const [mantissa = '', exp = '0'] = text.toLowerCase().split('e');
  const e = Number(exp);
  if (!Number.isSafeInteger(e) || Math.abs(e) > MAX_EXPONENT) return undefined;
  const negative = mantissa.startsWith('-');
  const unsigned = mantissa.replace(/^[+-]/, '');
  const [whole = '', fraction = ''] = unsigned.split('.');
  const magnitude = BigInt(`${whole}${fraction}` || '0');
  let scale = fraction.length - e;
  let digits = negative ? -magnitude : magnitude;
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits, scale };
}

/** The plain text of `digits × 10^-scale`. */
function plain({ digits, scale }: Exact): string {
  if (digits === 0n) return '0';
  const negative = digits < 0n;
  let text = (negative ? -digits : digits).toString();
  if (scale > 0) {
    text = text.padStart(scale + 1, '0');
    text = `${text.slice(0, text.length - scale)}.${text.slice(text.length - scale)}`.replace(/\.?0+$/, '');
  }
  return negative ? `-${text}` : text;
}

function aligned(a: Exact, b: Exact): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.digits * 10n ** BigInt(scale - a.scale), b.digits * 10n ** BigInt(scale - b.scale), scale];
}

/** `a − b`, exactly (`"67400"` − `"597.9"` = `"66802.1"`); null when either is absent or not a decimal. */
export function difference(a: string | null, b: string | null): string | null {
  const x = exactOf(a);
  const y = exactOf(b);
  if (x === undefined || y === undefined) return null;
  const [p, q, scale] = aligned(x, y);
  return plain({ digits: p - q, scale });
}

/** A percentage as a ratio: the point moved two places (`"-1.18"` → `"-0.0118"`). */
export function percentAsRatio(percent: string | null): string | null {
  const x = exactOf(percent);
  return x === undefined ? null : plain({ digits: x.digits, scale: x.scale + 2 });
}

/** `10^-n` for n from 0 to 64, written once. */
const STEPS = Array.from({ length: 65 }, (_, n) => plain({ digits: 1n, scale: n }));

/** `10^-n` from a count of decimal places (`"8"` → `"0.00000001"`, `"0"` → `"1"`); null unless a whole number from 0 to 64. */
export function stepOfPlaces(places: unknown): string | null {
  const n = typeof places === 'number' ? places : typeof places === 'string' && /^\d{1,2}$/.test(places) ? Number(places) : NaN;
  return Number.isSafeInteger(n) && n >= 0 && n <= 64 ? (STEPS[n] as string) : null;
}

/**
 * `10^-n` from a precision field the record cannot be read without when it is sent (OKX
 * `wdTickSz`, Bybit `minAccuracy`): absent or `""` is null (rule 2); anything else that is no
 * count of places makes the record malformed (FieldError: set aside, its previous value kept).
 */
export function stepOfSentPlaces(places: string | null): string | null {
  if (places === null || places === '') return null;
  const step = stepOfPlaces(places);
  if (step === null) throw new FieldError('a count of decimal places is not an integer');
  return step;
}

/** Decimal places of a derived quotient. */
const QUOTIENT_PLACES = 8;

/**
 * `(a − b) / b`, the change of `a` from `b` as a ratio, rounded half away from zero to 8
 * places (`(2.3909 − 2.3938) / 2.3938` → `"-0.00121146"`); null when either is absent or `b` is 0.
 */
export function changeRatio(a: string | null, b: string | null): string | null {
  const x = exactOf(a);
  const y = exactOf(b);
  if (x === undefined || y === undefined || y.digits === 0n) return null;
  const [p, q] = aligned(x, y);
  let num = (p - q) * 10n ** BigInt(QUOTIENT_PLACES);
  let den = q;
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const negative = num < 0n;
  const abs = negative ? -num : num;
  let quotient = abs / den;
  if ((abs % den) * 2n >= den) quotient += 1n;
  return plain({ digits: negative ? -quotient : quotient, scale: QUOTIENT_PLACES });
}

/** True when the decimal text is a value other than zero (`"0"`, `"0.0"`, `"0E-8"` are zero). */
export function nonZero(text: string | null): boolean {
  if (text === null) return false;
  // Plain zeros, the common case, without a BigInt.
  if (/^[+-]?0*\.?0*$/.test(text)) return false;
  const x = exactOf(text);
  return x !== undefined && x.digits !== 0n;
}

/** A spec-style symbol: separators removed, upper-cased (`BTC-USDT` → `BTCUSDT`). */
export function specSymbol(symbol: string): string {
  return symbol.replace(/[-_/]/g, '').toUpperCase();
}

const DAY_MS = 86_400_000;

/** The window of a rolling 24 h ticker known only by its snapshot time (rule 7). */
export function rollingWindow(closeTime: number | null): { openTime: number | null; closeTime: number | null } {
  return { openTime: closeTime === null ? null : closeTime - DAY_MS, closeTime };
}
