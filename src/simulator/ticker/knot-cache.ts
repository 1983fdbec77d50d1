/**
 * The knots around the two ends of a symbol's window (the walk alone, moves apart), kept between
 * answers: from one second to the next the same dozen knots are read again. Direct-mapped on 31 slots, so the two ends
 * (1,440 or 1,445 knots apart, 14 or 19 slots apart) do not evict each other.
 */
import type { SimSymbol } from '../market/model';
import { baseKnots, KNOT_MS, moveFactor } from './price-path';

/** Globals read once: see market/hash.ts (global lookups are slow under jest's vm context). */
const { floor } = Math;

const SLOTS = 31;

/** Slot i holds knot index at [i] and its price at [SLOTS + i]: one allocation per symbol. */
export type KnotCache = Float64Array;

export function newKnotCache(): KnotCache {
  return new Float64Array(2 * SLOTS).fill(Number.NaN, 0, SLOTS);
}

export function clearKnotCache(cache: KnotCache): void {
  cache.fill(Number.NaN, 0, SLOTS);
}

function baseAt(s: SimSymbol, cache: KnotCache, k: number): number {
  const slot = ((k % SLOTS) + SLOTS) % SLOTS;
  if (cache[slot] === k) return cache[SLOTS + slot] as number;
  const out = new Float64Array(1);
  baseKnots(s, k, 1, out);
  cache[slot] = k;
  cache[SLOTS + slot] = out[0] as number;
  return out[0] as number;
}

/** Price at knot k, moves included. */
export function knotAt(s: SimSymbol, cache: KnotCache, k: number): number {
  const base = baseAt(s, cache, k);
  return s.moves.length === 0 ? base : base * moveFactor(s, k * KNOT_MS);
}

/** Price at any millisecond: the walk linear between the knots around it, times the moves at that instant. */
export function priceAt(s: SimSymbol, cache: KnotCache, t: number): number {
  const k = floor(t / KNOT_MS);
  const f = (t - k * KNOT_MS) / KNOT_MS;
  const a = baseAt(s, cache, k);
  const base = f === 0 ? a : a + (baseAt(s, cache, k + 1) - a) * f;
  return s.moves.length === 0 ? base : base * moveFactor(s, t);
}
