/**
 * The reference exchange's live data: what `/api/v3/coins` and the ticker endpoint render.
 * Mutated only through actions (actions/apply.ts); every mutation bumps a version so the
 * rendered bodies can be cached until something changes.
 */

import type { WireNetwork } from '../../exchange/dialects/spot-v3/wire';
import type { Notices } from './notices';

/** `withdrawIntegerMultiple` keeps its exact text; `asString` emits it as a JSON string instead of a number. */
export interface IntegerMultiple {
  text: string;
  asString: boolean;
}

/** A network as the reference exchange holds it: the wire fields, with the multiple's exact text. */
export type SimNetwork = Omit<WireNetwork, 'coin' | 'withdrawIntegerMultiple'> & { withdrawIntegerMultiple: IntegerMultiple };

export interface SimCoin {
  coin: string;
  name: string;
  networks: SimNetwork[];
  /** Bumped on every change of this coin or its networks, so only it is rendered again. */
  version: number;
}

/** A scheduled drift of a symbol's price: by `factor` spread evenly (in log space) over `overMs`. */
export interface PriceMove {
  startMs: number;
  overMs: number;
  factor: number;
}

/** JSON values a test may force into a ticker (hostile-data tests). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface SimSymbol {
  symbol: string;
  base: string;
  quote: string;
  /** Hash of the symbol name and the seed: each symbol walks its own path, whatever the listing order. */
  seed: number;
  /** Price at the anchor: since ever for generated symbols, at listing for listed ones. */
  basePrice: number;
  /** Listing time; null for symbols that exist from the start (their history reaches back forever). */
  listedAt: number | null;
  priceDecimals: number;
  /** 10^priceDecimals: price * tickScale is the price in integer ticks. */
  tickScale: number;
  qtyDecimals: number;
  quoteDecimals: number;
  /** Scales the price noise; stable pairs barely move. */
  volatility: number;
  /** Typical traded base quantity per 5-minute bucket, in qty units (10^-qtyDecimals). */
  bucketVolumeUnits: number;
  /** Typical number of trades per 5-minute bucket. */
  bucketTrades: number;
  /** Typical bid/ask spread as a fraction of the price. */
  spread: number;
  moves: PriceMove[];
  overrides: Map<string, JsonValue>;
  /** Bumped on every change of this symbol, so its cached ticker is re-rendered. */
  version: number;
}

export interface Market {
  coins: Map<string, SimCoin>;
  symbols: Map<string, SimSymbol>;
  /** Bumped on every change to coins or networks. */
  coinsVersion: number;
  /** Bumped on every change to any symbol (listing, delisting, moves, overrides). */
  symbolsVersion: number;
  /** Maintenance windows and announcements (notices.md), rendered by each dialect's notice sources. */
  notices: Notices;
}

export function touchCoin(market: Market, coin: SimCoin): void {
  coin.version += 1;
  market.coinsVersion += 1;
}

export function touchSymbol(market: Market, symbol: SimSymbol): void {
  symbol.version += 1;
  market.symbolsVersion += 1;
}

export function networkCount(market: Market): number {
  let n = 0;
  for (const coin of market.coins.values()) n += coin.networks.length;
  return n;
}
