/**
 * Stateless hashing. The price path and the traded volume are pure functions of
 * (symbol seed, time index), so the answer for a given clock does not depend on when or how
 * often the exchange was asked before.
 *
 * Math is read once here: under jest's vm context every global lookup is slow enough to make
 * the default-scale tests minutes long, and this is the innermost loop of the ticker engine.
 */
const { imul } = Math;

function mix(h: number): number {
  let x = h;
  x ^= x >>> 16;
  x = imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Uniform in [0, 1) from a seed and an integer index. */
export function unitHash(seed: number, index: number): number {
  return mix(imul(seed ^ 0x9e3779b9, 0x27d4eb2d) ^ mix(index | 0)) / 4294967296;
}

/** Uniform in [-1, 1). */
export function signedHash(seed: number, index: number): number {
  return unitHash(seed, index) * 2 - 1;
}

/** FNV-1a of a string, mixed with a seed. */
export function hashString(text: string, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = imul(h, 0x01000193);
  }
  return mix(h);
}
