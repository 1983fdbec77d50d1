import { matchesAll } from './match';
import { measuresOverTime, type Rule } from './model';
import type { TickerRecord } from '../snapshot/model';

/** One observation of a ticker by the watcher. */
export interface Sample {
  at: number;
  price: number;
}

/** What the history of one symbol holds. */
export interface SymbolHistory {
  samples: Sample[];
  /** lastPrice, count and volume together, as last seen. */
  signature: string;
  /** When that signature was first seen: the ticker has not moved since. */
  unchangedSince: number;
}

/**
 * The watcher's own samples of each ticker, for `move_percent` windows and `stale_for`.
 * Time is passed in. Samples older than the longest window are dropped, and samples are
 * thinned to about 120 per window so a long window costs no more memory than a short one.
 */
export class TickerHistory {
  readonly symbols = new Map<string, SymbolHistory>();

  constructor(private keepMs: number) {}

  setKeep(keepMs: number): void {
    this.keepMs = keepMs;
  }

  /**
   * Records a poll's tickers: the engine gives only those some rule measures over time
   * (SampledTickers): at 14,000 symbols, samples of every symbol would cost hundreds of
   * megabytes for nothing.
   */
  record(tickers: Iterable<TickerRecord>, now: number): void {
    const spacing = this.keepMs / 120;
    for (const t of tickers) {
      const price = Number(t.lastPrice);
      const signature = `${t.lastPrice}|${t.count ?? ''}|${t.volume ?? ''}`;
      let h = this.symbols.get(t.symbol);
      if (h === undefined) {
        h = { samples: [], signature, unchangedSince: now };
        this.symbols.set(t.symbol, h);
      } else if (h.signature !== signature) {
        h.signature = signature;
        h.unchangedSince = now;
      }
      if (this.keepMs <= 0 || !Number.isFinite(price)) continue;
      const s = h.samples;
      const last = s[s.length - 1];
      const beforeLast = s[s.length - 2];
      if (last !== undefined && beforeLast !== undefined && now - beforeLast.at < spacing) {
        // The newest sample is still within `spacing` of the one before it: move it forward
        // instead of adding one, so kept samples stay about `spacing` apart.
        last.at = now;
        last.price = price;
      } else s.push({ at: now, price });
      let drop = 0;
      while (drop < s.length - 1 && (s[drop] as Sample).at < now - this.keepMs) drop++;
      if (drop > 0) s.splice(0, drop);
    }
  }

  /** The oldest sample taken at or after `since`, if any. */
  reference(symbol: string, since: number): Sample | undefined {
    const s = this.symbols.get(symbol)?.samples;
    if (s === undefined) return undefined;
    for (const sample of s) if (sample.at >= since) return sample;
    return undefined;
  }

  unchangedSince(symbol: string): number | undefined {
    return this.symbols.get(symbol)?.unchangedSince;
  }
}

/** Samples are kept for the longest move_percent window (plus a margin). */
export function historyKeep(rules: readonly Rule[]): number {
  let longest = 0;
  for (const r of rules) if (r.condition.type === 'ticker' && r.condition.windowMs !== undefined) longest = Math.max(longest, r.condition.windowMs);
  return longest === 0 ? 0 : longest + 60_000;
}

/** Whether any rule measures `symbol` of `exchange` over time (move_percent, stale_for), so its samples are kept. */
function samplesSymbol(rules: readonly Rule[], exchange: string, symbol: string): boolean {
  return rules.some((r) => r.condition.type === 'ticker' && measuresOverTime(r.condition.measure) && matchesAll(r.match, { exchange, symbol, kind: r.condition.measure }));
}

/**
 * The tickers of one exchange that some rule measures over time (samplesSymbol): decided once
 * per symbol, listed once per tickers map (an unchanged answer keeps its map). Cleared when the
 * rules change.
 */
export class SampledTickers {
  private readonly bySymbol = new Map<string, boolean>();
  private last: { source: ReadonlyMap<string, TickerRecord>; list: TickerRecord[] } | undefined;

  constructor(private readonly exchange: string) {}

  of(tickers: ReadonlyMap<string, TickerRecord>, rules: readonly Rule[]): TickerRecord[] {
    if (this.last?.source === tickers) return this.last.list;
    const list: TickerRecord[] = [];
    for (const t of tickers.values()) {
      let yes = this.bySymbol.get(t.symbol);
      if (yes === undefined) this.bySymbol.set(t.symbol, (yes = samplesSymbol(rules, this.exchange, t.symbol)));
      if (yes) list.push(t);
    }
    this.last = { source: tickers, list };
    return list;
  }

  clear(): void {
    this.bySymbol.clear();
    this.last = undefined;
  }
}
