/**
 * Decimal equality by value, not by text: `0.0010` and `1E-3` are the same fee, and a
 * change of notation alone must not raise a change. Exact (no floats): both sides are
 * reduced to sign, significant digits and exponent.
 */
export function sameDecimal(a: string | null, b: string | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  const x = canonical(a);
  const y = canonical(b);
  return x !== undefined && x === y;
}

function canonical(text: string): string | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m) return undefined;
  const [, sign = '', int = '', frac = '', exp = '0'] = m;
  let digits = int + frac;
  let exponent = Number(exp) - frac.length;
  const lead = digits.search(/[1-9]/);
  if (lead === -1) return '0';
  digits = digits.slice(lead);
  const trimmed = digits.replace(/0+$/, '');
  exponent += digits.length - trimmed.length;
  return `${sign === '-' ? '-' : ''}${trimmed}e${exponent}`;
}

/** A decimal's value as a number, for thresholds, ratios and metrics (never to store or compare the text). */
export function decimalToNumber(text: string | null): number | undefined {
  if (text === null || text === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}
