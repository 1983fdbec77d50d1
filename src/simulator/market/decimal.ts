/**
 * Decimal text. Prices are integers of ticks printed with a fixed number of places, so a
 * difference of two prices is exact (no `0.30000000000000004`).
 */

/** Globals read once: see market/hash.ts (global lookups are slow under jest's vm context). */
const { abs, floor, log10, min, max } = Math;
const { isSafeInteger } = Number;
const toBigInt = BigInt;
const toText = String;

/** Non-negative plain decimal: `0`, `12`, `0.0005`. */
const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;
/** RFC 8259 number grammar: what may stand unquoted in a JSON body. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

export function isDecimalText(text: string): boolean {
  return DECIMAL.test(text);
}

export function isJsonNumberText(text: string): boolean {
  return JSON_NUMBER.test(text);
}

/** `units` (an integer) divided by 10^places, printed with exactly `places` decimals. */
export function formatScaled(units: number | bigint, places: number): string {
  // Safe integers print exactly without BigInt, which is the hot path of every ticker.
  const safe = typeof units === 'number' && isSafeInteger(units);
  const negative = units < 0;
  const magnitude = safe ? toText(abs(units)) : (negative ? -toBigInt(units) : toBigInt(units)).toString();
  const digits = magnitude.padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const sign = negative ? '-' : '';
  return places === 0 ? `${sign}${whole}` : `${sign}${whole}.${digits.slice(digits.length - places)}`;
}

/** numerator / denominator rounded half away from zero to `places` decimals; never `-0`. */
export function formatRatio(numerator: bigint, denominator: bigint, places: number): string {
  if (denominator === 0n) throw new RangeError('ratio with a zero denominator');
  const negative = numerator < 0n !== denominator < 0n;
  const n = (numerator < 0n ? -numerator : numerator) * 10n ** toBigInt(places);
  const d = denominator < 0n ? -denominator : denominator;
  const rounded = (2n * n + d) / (2n * d);
  return formatScaled(negative ? -rounded : rounded, places);
}

/** A positive amount as plain decimal text with `significant` digits, trailing zeros dropped. */
export function formatSignificant(value: number, significant: number, maxPlaces = 10): string {
  if (!(value > 0)) return '0';
  const magnitude = floor(log10(value));
  const places = min(maxPlaces, max(0, significant - 1 - magnitude));
  const text = value.toFixed(places);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** Places that give a price about seven significant digits, as real order books quote. */
export function pricePlaces(price: number): number {
  return min(12, max(0, 6 - floor(log10(price))));
}
