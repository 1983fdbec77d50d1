/** Building one trading pair: the parameters its price path and traded volume are drawn from. */
import { pricePlaces } from './decimal';
import { hashString } from './hash';
import type { SimSymbol } from './model';

export interface SymbolSpec {
  symbol: string;
  base: string;
  quote: string;
  /** Price at listing (or at the anchor for pairs that exist from the start), in quote units. */
  price: number;
  listedAt: number | null;
  /** Typical traded value over 24 hours, in quote units. */
  dailyQuoteVolume: number;
  /** Typical value of one trade, in quote units. */
  tradeValue: number;
  volatility: number;
  spread: number;
  /** Places of base quantities (volume, bidQty, askQty). */
  qtyDecimals: number;
  /** Places of quote amounts (quoteVolume). */
  quoteDecimals: number;
  seed: number;
}

const BUCKETS_PER_DAY = 288;

export function newSymbol(spec: SymbolSpec): SimSymbol {
  const dailyBase = spec.dailyQuoteVolume / spec.price;
  const priceDecimals = pricePlaces(spec.price);
  return {
    symbol: spec.symbol,
    base: spec.base,
    quote: spec.quote,
    seed: hashString(spec.symbol, spec.seed),
    basePrice: spec.price,
    listedAt: spec.listedAt,
    priceDecimals,
    tickScale: 10 ** priceDecimals,
    qtyDecimals: spec.qtyDecimals,
    quoteDecimals: spec.quoteDecimals,
    volatility: spec.volatility,
    bucketVolumeUnits: (dailyBase / BUCKETS_PER_DAY) * 10 ** spec.qtyDecimals,
    bucketTrades: Math.max(1, spec.dailyQuoteVolume / spec.tradeValue / BUCKETS_PER_DAY),
    spread: spec.spread,
    moves: [],
    overrides: new Map(),
    version: 0,
  };
}

/** Quantity places so that one unit is worth about a cent of USD or less. */
export function qtyPlacesFor(usdPrice: number): number {
  return Math.min(8, Math.max(0, Math.floor(Math.log10(usdPrice)) + 2));
}

/** Quote places: fiat-like quotes to 4 places, crypto quotes to 8. */
export function quotePlacesFor(quoteUsd: number): number {
  return quoteUsd > 100 ? 8 : 4;
}
