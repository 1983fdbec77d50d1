/**
 * A symbol's price as a pure function of time. The path is piecewise linear between knots one
 * minute apart; a knot's price is the anchor times exp(fractal noise) times any scripted moves.
 * Being linear between knots, the highest and lowest price over any interval lies on a knot or
 * an end of the interval, so the 24-hour high and low are exact without sampling every second.
 */
import { signedHash } from '../market/hash';
import type { PriceMove, SimSymbol } from '../market/model';

/** Globals read once: see market/hash.ts (global lookups are slow under jest's vm context). */
const { floor, min, exp, max, round } = Math;

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

function moveFactor(moves: readonly PriceMove[], t: number): number {
  let factor = 1;
  for (const m of moves) {
    if (t <= m.startMs) continue;
    factor *= t >= m.startMs + m.overMs ? m.factor : m.factor ** ((t - m.startMs) / m.overMs);
  }
  return factor;
}

/**
 * Prices of `count` consecutive knots from knot `from` (knot k is at k * KNOT_MS). A listed
 * symbol holds its listing price until the first knot after listing, then walks from there.
 */
export function knotPrices(s: SimSymbol, from: number, count: number, out: Float64Array): void {
  noiseRun(s.seed, from, count, out);
  let anchor = 0;
  let first = Number.NEGATIVE_INFINITY;
  if (s.listedAt !== null) {
    first = floor(s.listedAt / KNOT_MS) + 1;
    const one = new Float64Array(1);
    noiseRun(s.seed, first, 1, one);
    anchor = one[0] as number;
  }
  for (let n = 0; n < count; n++) {
    const k = from + n;
    const walk = k <= first ? 0 : (out[n] as number) - anchor;
    const price = s.basePrice * exp(s.volatility * walk);
    out[n] = s.moves.length === 0 ? price : price * moveFactor(s.moves, k * KNOT_MS);
  }
}

/** Integer ticks of 10^-priceDecimals, never below one tick. */
export function toTicks(s: SimSymbol, price: number): number {
  return max(1, round(price * s.tickScale));
}
