/**
 * Rolling 24-hour statistics of one symbol at a time t: open, last, high, low, volume, quote
 * volume and trade count. Full 5-minute buckets are cached in typed rings (high, low, quote
 * volume per bucket) and their totals are kept until the window slides into another bucket;
 * only the two partial buckets at the window's ends are computed per answer.
 */
import { unitHash } from '../market/hash';
import type { SimSymbol } from '../market/model';
import { clearKnotCache, knotAt, newKnotCache, priceAt, type KnotCache } from './knot-cache';
import { KNOT_MS, knotPrices, toTicks } from './price-path';

/** Globals read once: see market/hash.ts (global lookups are slow under jest's vm context). */
const { min, max, floor, round, ceil } = Math;
const INFINITY = Number.POSITIVE_INFINITY;

export const DAY_MS = 86_400_000;
const BUCKET_MS = 300_000;
const KNOTS_PER_BUCKET = BUCKET_MS / KNOT_MS;
/** 288 full buckets and the partial one at the window's start. */
const RING = 290;
const VOLUME_SALT = 0x3c6ef372;
/** Tag of an empty ring slot: no bucket of the next few thousand years has this index. */
const NO_BUCKET = -2_147_483_648;
const UINT32_MAX = 0xffff_ffff;

export interface WindowStats {
  openTicks: number;
  lastTicks: number;
  highTicks: number;
  lowTicks: number;
  volumeUnits: number;
  quoteUnits: number;
  count: number;
}

/**
 * 3,500 symbols x 290 buckets: the rings are most of the simulator's memory, so they are narrow.
 * High and low are exact integer ticks in 32 bits (widened to 64 if a price ever outgrows them);
 * quote volume only has to be plausible, and a 32-bit float of an integer is still an integer.
 */
export interface WindowCache {
  version: number;
  knots: KnotCache;
  tags: Int32Array;
  high: Uint32Array | Float64Array;
  low: Uint32Array | Float64Array;
  quote: Float32Array;
  aggFirst: number;
  aggLast: number;
  agg: { high: number; low: number; volume: number; quote: number; count: number };
}

export function newWindowCache(): WindowCache {
  return {
    version: -1,
    knots: newKnotCache(),
    tags: new Int32Array(RING).fill(NO_BUCKET),
    high: new Uint32Array(RING),
    low: new Uint32Array(RING),
    quote: new Float32Array(RING),
    aggFirst: Number.NaN,
    aggLast: Number.NaN,
    agg: { high: 0, low: 0, volume: 0, quote: 0, count: 0 },
  };
}

/** Share of bucket j that lies after the listing (all of it for symbols that exist from the start). */
function listedShare(s: SimSymbol, j: number): number {
  if (s.listedAt === null) return 1;
  return min(1, max(0, ((j + 1) * BUCKET_MS - s.listedAt) / BUCKET_MS));
}

function activity(s: SimSymbol, j: number): number {
  return (0.4 + 1.2 * unitHash(s.seed ^ VOLUME_SALT, j)) * listedShare(s, j);
}

function bucketVolume(s: SimSymbol, j: number): number {
  return floor(s.bucketVolumeUnits * activity(s, j));
}

function bucketTrades(s: SimSymbol, j: number): number {
  const a = activity(s, j);
  return a === 0 ? 0 : max(1, round(s.bucketTrades * a));
}

/** Quote units per (qty unit x price): computed once per run, Math.pow is costly in the fill loop. */
function quoteScale(s: SimSymbol): number {
  return 10 ** (s.quoteDecimals - s.qtyDecimals);
}

function slotOf(j: number): number {
  return ((j % RING) + RING) % RING;
}

/**
 * Compute the missing buckets of [from, to] (all wholly in the past), in runs: a run of
 * consecutive knots is much cheaper than the same knots one by one (see knotPrices).
 */
function fillBuckets(s: SimSymbol, cache: WindowCache, from: number, to: number, scratch: Float64Array): void {
  let j = from;
  while (j <= to) {
    if (cache.tags[slotOf(j)] === j) {
      j++;
      continue;
    }
    let end = j;
    while (end < to && cache.tags[slotOf(end + 1)] !== end + 1) end++;
    const buckets = min(end - j + 1, RING);
    end = j + buckets - 1;
    const scale = quoteScale(s);
    knotPrices(s, j * KNOTS_PER_BUCKET, buckets * KNOTS_PER_BUCKET, scratch);
    for (let b = 0; b < buckets; b++) {
      let high = 0;
      let low = INFINITY;
      for (let i = 0; i < KNOTS_PER_BUCKET; i++) {
        const ticks = toTicks(s, scratch[b * KNOTS_PER_BUCKET + i] as number);
        if (ticks > high) high = ticks;
        if (ticks < low) low = ticks;
      }
      const slot = slotOf(j + b);
      if (high > UINT32_MAX && cache.high instanceof Uint32Array) {
        cache.high = Float64Array.from(cache.high);
        cache.low = Float64Array.from(cache.low);
      }
      cache.high[slot] = high;
      cache.low[slot] = low;
      cache.quote[slot] = round(bucketVolume(s, j + b) * (scratch[b * KNOTS_PER_BUCKET + 2] as number) * scale);
      cache.tags[slot] = j + b;
    }
    j = end + 1;
  }
}

function aggregate(s: SimSymbol, cache: WindowCache, first: number, last: number, scratch: Float64Array): WindowCache['agg'] {
  if (cache.aggFirst === first && cache.aggLast === last) return cache.agg;
  fillBuckets(s, cache, first - 1, last, scratch);
  const agg = { high: 0, low: INFINITY, volume: 0, quote: 0, count: 0 };
  for (let j = first; j <= last; j++) {
    const slot = slotOf(j);
    agg.high = max(agg.high, cache.high[slot] as number);
    agg.low = min(agg.low, cache.low[slot] as number);
    agg.quote += cache.quote[slot] as number;
    agg.volume += bucketVolume(s, j);
    agg.count += bucketTrades(s, j);
  }
  cache.aggFirst = first;
  cache.aggLast = last;
  cache.agg = agg;
  return agg;
}

/**
 * Knots of one fill run: held by the caller and reused, because the first answer fills every
 * symbol's window at once and a fresh array per symbol is 40 MB of garbage in one burst.
 */
export function newScratch(): Float64Array {
  return new Float64Array(RING * KNOTS_PER_BUCKET);
}

/** Stats of the window [t - 24 h, t]. */
export function windowStats(s: SimSymbol, cache: WindowCache, t: number, scratch: Float64Array): WindowStats {
  if (cache.version !== s.version) {
    cache.tags.fill(NO_BUCKET);
    clearKnotCache(cache.knots);
    cache.aggFirst = Number.NaN;
    cache.version = s.version;
  }
  const start = t - DAY_MS;
  const first = ceil(start / BUCKET_MS);
  const last = floor(t / BUCKET_MS) - 1;
  const agg = aggregate(s, cache, first, last, scratch);
  const lead = first - 1;
  const leadShare = (first * BUCKET_MS - start) / BUCKET_MS;
  const trail = last + 1;
  const trailShare = (t - trail * BUCKET_MS) / BUCKET_MS;

  const openTicks = toTicks(s, priceAt(s, cache.knots, start));
  const lastTicks = toTicks(s, priceAt(s, cache.knots, t));
  let high = max(agg.high, openTicks, lastTicks);
  let low = min(agg.low, openTicks, lastTicks);
  const consider = (k: number): void => {
    const ticks = toTicks(s, knotAt(s, cache.knots, k));
    if (ticks > high) high = ticks;
    if (ticks < low) low = ticks;
  };
  for (let k = lead * KNOTS_PER_BUCKET; k < first * KNOTS_PER_BUCKET; k++) if (k * KNOT_MS >= start) consider(k);
  for (let k = trail * KNOTS_PER_BUCKET; k * KNOT_MS <= t; k++) consider(k);

  const leadQuote = leadShare > 0 ? (cache.quote[slotOf(lead)] as number) : 0;
  const trailVolume = bucketVolume(s, trail);
  const trailQuote = round(trailVolume * knotAt(s, cache.knots, trail * KNOTS_PER_BUCKET + 2) * quoteScale(s));
  return {
    openTicks,
    lastTicks,
    highTicks: high,
    lowTicks: low,
    volumeUnits: agg.volume + floor(bucketVolume(s, lead) * leadShare) + floor(trailVolume * trailShare),
    quoteUnits: agg.quote + round(leadQuote * leadShare) + round(trailQuote * trailShare),
    count: agg.count + floor(bucketTrades(s, lead) * leadShare) + floor(bucketTrades(s, trail) * trailShare),
  };
}
