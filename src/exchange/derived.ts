/**
 * What dialects.md section 1 lets a dialect derive, computed exactly on the decimal text
 * (never through floating point): differences, a percentage as a ratio, 10^-n from a
 * decimal-places field, a quotient rounded half away from zero to 8 places (rule 3); the coin
 * flags from its networks (rule 4); spec-style symbols (rule 6); the 24 h window (rule 7).
 * Every derived decimal is in plain notation, without trailing zeros, `"0"` for zero.
 */
import { FieldError } from './read';

/** A decimal as an integer and a count of places: `"-1.50"` is -150 and 2. */
interface Exact {
  units: bigint;
  places: number;
}

const TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

function exact(text: string): Exact {
  const m = TEXT.exec(text);
  if (m === null || `${m[2] ?? ''}${m[3] ?? ''}` === '') throw new FieldError('a value to derive from is not a decimal');
  const digits = `${m[2] ?? ''}${m[3] ?? ''}`;
  let places = (m[3] ?? '').length - Number(m[4] ?? '0');
  let units = BigInt(digits);
  if (places < 0) {
    units *= 10n ** BigInt(-places);
    places = 0;
  }
  return { units: m[1] === '-' ? -units : units, places };
}

function plain({ units, places }: Exact): string {
  if (units === 0n) return '0';
  const sign = units < 0n ? '-' : '';
  const digits = (units < 0n ? -units : units).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places).replace(/0+$/, '');
  return `${sign}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

function scaled(e: Exact, places: number): bigint {
  return e.units * 10n ** BigInt(places - e.places);
}

/** `a − b`, exactly. */
export function difference(a: string, b: string): string {
  const x = exact(a);
  const y = exact(b);
  const places = Math.max(x.places, y.places);
  return plain({ units: scaled(x, places) - scaled(y, places), places });
}

/** A percentage as a ratio: the point moved two places (`"-0.159"` → `"-0.00159"`). */
export function percentToRatio(percent: string): string {
  const e = exact(percent);
  return plain({ units: e.units, places: e.places + 2 });
}

/** 10^-n for a count of decimal places (`"8"` → `"0.00000001"`, `"0"` → `"1"`). */
export function tenToMinus(places: string | number): string {
  const n = typeof places === 'number' ? places : /^\d{1,3}$/.test(places) ? Number(places) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > 100) throw new FieldError('a count of decimal places is not an integer');
  return plain({ units: 1n, places: n });
}

/** `(last − open) / open`, rounded half away from zero to 8 places; null when open is zero. */
export function changeRatio(last: string, open: string): string | null {
  const l = exact(last);
  const o = exact(open);
  if (o.units === 0n) return null;
  const places = Math.max(l.places, o.places);
  const num = (scaled(l, places) - scaled(o, places)) * 10n ** 8n;
  const den = scaled(o, places);
  const negative = num < 0n !== den < 0n && num !== 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  const q = (2n * n + d) / (2n * d);
  return plain({ units: negative ? -q : q, places: 8 });
}

/** A spec-style symbol: separators removed, upper-cased (`BTC-USDT` → `BTCUSDT`). */
export function specSymbol(symbol: string): string {
  return symbol.replace(/[-_/]/g, '').toUpperCase();
}

/** A coin flag from its networks: true iff it has one and every one's flag is (rule 4). */
export function everyNetwork<N extends { depositEnable: boolean; withdrawEnable: boolean }>(networks: readonly N[], flag: 'depositEnable' | 'withdrawEnable'): boolean {
  return networks.length > 0 && networks.every((n) => n[flag]);
}

export const DAY_MS = 86_400_000;

/** The window of a rolling 24 h ticker known only by its snapshot time (rule 7). */
export function rollingWindow(closeTime: number | null): { openTime: number | null; closeTime: number | null } {
  return { openTime: closeTime === null ? null : closeTime - DAY_MS, closeTime };
}
