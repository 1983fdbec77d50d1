/**
 * Exact decimal arithmetic for assertions, written apart from the simulator's own so a test
 * does not check the code against itself.
 */
export interface Exact {
  units: bigint;
  scale: number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

export function exact(text: string): Exact {
  const m = DECIMAL.exec(text);
  if (m === null) throw new Error(`not a decimal: ${text}`);
  const fraction = m[3] ?? '';
  const units = BigInt(`${m[2]}${fraction}`);
  return { units: m[1] === '-' ? -units : units, scale: fraction.length };
}

function align(a: Exact, b: Exact): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * 10n ** BigInt(scale - a.scale), b.units * 10n ** BigInt(scale - b.scale), scale];
}

/** a - b == c, exactly. */
export function differenceIs(a: string, b: string, c: string): boolean {
  const [x, y, scale] = align(exact(a), exact(b));
  const [d, z] = align({ units: x - y, scale }, exact(c));
  return d === z;
}

export function compare(a: string, b: string): number {
  const [x, y] = align(exact(a), exact(b));
  return x < y ? -1 : x > y ? 1 : 0;
}
