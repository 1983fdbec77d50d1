/**
 * A symbol's price as a pure function of time: a walk, piecewise linear between knots one minute
 * apart (a knot's price is the anchor times exp(fractal noise)), times the factor of any scripted
 * moves at that instant. Being linear between knots, the walk's highest and lowest price over an
 * interval lie on a knot or an end of the interval, so the 24-hour high and low come from knots
 * and the window's two ends, without sampling every second. (While a move runs, the price between
 * two knots can pass them by a hair; open and last are always inside high and low.)
 */
import { signedHash } from '../market/hash';
import type { SimSymbol } from '../market/model';

/** Globals read once: see market/hash.ts (global lookups are slow under jest's vm context). */
const { floor, min, exp, max, round } = Math;
const INFINITY = Number.POSITIVE_INFINITY;

export const KNOT_MS = 60_000;

/** Periods in knots and log-amplitudes, roughly Brownian (amplitude ~ sqrt(period)). */
const WHITE = { amplitude: 0.0005, salt: 0x1b873593 };
const OCTAVES = [
  { period: 15, amplitude: 0.002, salt: 0x2c1b3c6d },
  { period: 120, amplitude: 0.005, salt: 0x297a2d39 },
  { period: 1_440, amplitude: 0.015, salt: 0x7feb352d },
  { period: 10_080, amplitude: 0.04, salt: 0x846ca68b },
  { period: 43_200, amplitude: 0.08, salt: 0x5bd1e995 },
] as const;

/**
 * Log-noise of `count` consecutive knots from `from` into `out`. Neighbouring knots share the
 * lattice points of every slow octave, so a run costs about one hash per knot instead of eleven.
 */
function noiseRun(seed: number, from: number, count: number, out: Float64Array): void {
  const white = seed ^ WHITE.salt;
  for (let n = 0; n < count; n++) out[n] = WHITE.amplitude * signedHash(white, from + n);
  for (const { period, amplitude, salt } of OCTAVES) {
    const s = seed ^ salt;
    const end = from + count;
    let k = from;
    while (k < end) {
      const cell = floor(k / period);
      const a = signedHash(s, cell);
      const b = signedHash(s, cell + 1);
      const cellStart = cell * period;
      const stop = min(end, cellStart + period);
      for (; k < stop; k++) {
        const f = (k - cellStart) / period;
        out[k - from] = (out[k - from] as number) + amplitude * (a + (b - a) * f * f * (3 - 2 * f));
      }
    }
  }
}

/** The product of every scripted move at time t: 1 before a move starts, its factor once it is over. */
export function moveFactor(s: SimSymbol, t: number): number {
  let factor = 1;
  for (const m of s.moves) {
    if (t <= m.startMs) continue;
    factor *= t >= m.startMs + m.overMs ? m.factor : m.factor ** ((t - m.startMs) / m.overMs);
  }
  return factor;
}

/**
 * The walk alone, without scripted moves, at `count` consecutive knots from knot `from` (knot k
 * is at k * KNOT_MS). A listed symbol holds its listing price until the first knot after
 * listing, then walks from there.
 */
export function baseKnots(s: SimSymbol, from: number, count: number, out: Float64Array): void {
  noiseRun(s.seed, from, count, out);
  let anchor = 0;
  let first = -INFINITY;
  if (s.listedAt !== null) {
    first = floor(s.listedAt / KNOT_MS) + 1;
    const one = new Float64Array(1);
    noiseRun(s.seed, first, 1, one);
    anchor = one[0] as number;
  }
  for (let n = 0; n < count; n++) {
    const walk = from + n <= first ? 0 : (out[n] as number) - anchor;
    out[n] = s.basePrice * exp(s.volatility * walk);
  }
}

/**
 * Prices at knots, moves included. Moves scale the price at every instant (not only at knots),
 * so a move starting mid-minute does not shift the price already shown.
 */
export function knotPrices(s: SimSymbol, from: number, count: number, out: Float64Array): void {
  baseKnots(s, from, count, out);
  if (s.moves.length === 0) return;
  for (let n = 0; n < count; n++) out[n] = (out[n] as number) * moveFactor(s, (from + n) * KNOT_MS);
}

/** Integer ticks of 10^-priceDecimals, never below one tick. */
export function toTicks(s: SimSymbol, price: number): number {
  return max(1, round(price * s.tickScale));
}
