/**
 * Rendered tickers, cached per symbol until the window moves on (closeTime is aligned to the
 * second) or the symbol changes; the all-symbols body is cached the same way. Entries are
 * updated in place: a fresh object per symbol per second only feeds the garbage collector.
 */
import type { Market, SimSymbol } from '../market/model';
import { renderTicker } from './render';
import { newScratch, newWindowCache, windowStats, type WindowCache } from './window';

const ALIGN_MS = 1_000;

export interface TickerBook {
  /** The rendered ticker object of one symbol at closeTime. */
  one(symbol: SimSymbol, closeTime: number): string;
  /** The array of every symbol's ticker, in listing order. */
  all(closeTime: number): Buffer;
}

interface Entry {
  window: WindowCache;
  closeTime: number;
  version: number;
  json: string;
}

/** closeTime of an answer at `now`: window boundaries are whole seconds, not the last trade. */
export function alignCloseTime(now: number): number {
  return now - (((now % ALIGN_MS) + ALIGN_MS) % ALIGN_MS);
}

export function createTickerBook(market: Market): TickerBook {
  const entries = new Map<SimSymbol, Entry>();
  const scratch = newScratch();
  let prunedAt = market.symbolsVersion;
  let allCache = { closeTime: Number.NaN, version: -1, body: Buffer.alloc(0) };

  /** Drop the caches of delisted symbols (their objects are no longer in the market). */
  const prune = (): void => {
    if (prunedAt === market.symbolsVersion) return;
    for (const s of entries.keys()) if (market.symbols.get(s.symbol) !== s) entries.delete(s);
    prunedAt = market.symbolsVersion;
  };

  const one = (s: SimSymbol, closeTime: number): string => {
    let entry = entries.get(s);
    if (entry === undefined) {
      prune();
      entry = { window: newWindowCache(), closeTime: Number.NaN, version: -1, json: '' };
      entries.set(s, entry);
    }
    if (entry.closeTime !== closeTime || entry.version !== s.version) {
      entry.json = renderTicker(s, windowStats(s, entry.window, closeTime, scratch), closeTime);
      entry.closeTime = closeTime;
      entry.version = s.version;
    }
    return entry.json;
  };

  return {
    one,
    all: (closeTime) => {
      if (allCache.closeTime !== closeTime || allCache.version !== market.symbolsVersion) {
        prune();
        const parts: string[] = [];
        for (const s of market.symbols.values()) parts.push(one(s, closeTime));
        allCache = { closeTime, version: market.symbolsVersion, body: Buffer.from(`[${parts.join(',')}]`) };
      }
      return allCache.body;
    },
  };
}
