/**
 * The watcher's own samples of the tickers some rule measures over time (`move_percent`
 * windows, `stale_for`): what those rules read, kept as long as the longest window needs.
 */
import { matchesAll } from './match';
import { measuresOverTime, type Rule } from './model';
import type { TickerRecord } from '../snapshot/model';

/** One observation of a ticker by the watcher. */
export interface Sample {
  readonly at: number;
  readonly price: number;
}

/** What the history of one symbol holds. */
export interface SymbolHistory {
  readonly samples: readonly Sample[];
  /** lastPrice, count and volume together, as last seen. */
  readonly signature: string;
  /** When that signature was first seen: the ticker has not moved since. */
  readonly unchangedSince: number;
}

/**
 * The watcher's own samples of the tickers some rule measures over time (`move_percent`
 * windows, `stale_for`), by symbol. A value: recordSamples returns a new one.
 */
export type Samples = ReadonlyMap<string, SymbolHistory>;

/** Samples kept per window: a long window costs no more memory than a short one. */
const PER_WINDOW = 120;

/**
 * The samples after a poll's tickers at `now`: samples older than `keepMs` are dropped, and
 * they are thinned to about PER_WINDOW per `keepMs` (the newest one moves forward while it is
 * within the spacing of the one before it). Only the tickers given are sampled (see
 * sampledTickers: at 14,000 symbols, samples of every one would cost hundreds of megabytes).
 */
export function recordSamples(samples: Samples, tickers: Iterable<TickerRecord>, now: number, keepMs: number): Samples {
  let out: Map<string, SymbolHistory> | undefined;
  const spacing = keepMs / PER_WINDOW;
  for (const t of tickers) {
    const price = Number(t.lastPrice);
    const signature = `${t.lastPrice}|${t.count ?? ''}|${t.volume ?? ''}`;
    const h = samples.get(t.symbol);
    const unchangedSince = h === undefined || h.signature !== signature ? now : h.unchangedSince;
    let kept = h?.samples ?? [];
    if (keepMs > 0 && Number.isFinite(price)) {
      const n = kept.length;
      const beforeLast = kept[n - 2];
      // The newest sample still within `spacing` of the one before it moves forward instead of
      // another being added, so kept samples stay about `spacing` apart.
      const base = beforeLast !== undefined && now - beforeLast.at < spacing ? kept.slice(0, n - 1) : kept.slice();
      base.push({ at: now, price });
      let drop = 0;
      while (drop < base.length - 1 && (base[drop] as Sample).at < now - keepMs) drop++;
      kept = drop > 0 ? base.slice(drop) : base;
    }
    if (h !== undefined && kept === h.samples && unchangedSince === h.unchangedSince) continue;
    out ??= new Map(samples);
    out.set(t.symbol, { samples: kept, signature, unchangedSince });
  }
  return out ?? samples;
}

/** The oldest sample of `symbol` taken at or after `since`, if any. */
export function referenceSample(samples: Samples, symbol: string, since: number): Sample | undefined {
  for (const sample of samples.get(symbol)?.samples ?? []) if (sample.at >= since) return sample;
  return undefined;
}

/** Samples are kept for the longest move_percent window (plus a margin). */
export function historyKeep(rules: readonly Rule[]): number {
  let longest = 0;
  for (const r of rules) if (r.condition.type === 'ticker' && r.condition.windowMs !== undefined) longest = Math.max(longest, r.condition.windowMs);
  return longest === 0 ? 0 : longest + 60_000;
}

/** The tickers of `exchange` that some rule measures over time (move_percent, stale_for): only their samples are kept. */
export function sampledTickers(rules: readonly Rule[], exchange: string, tickers: ReadonlyMap<string, TickerRecord>): TickerRecord[] {
  const overTime = rules.filter((r) => r.condition.type === 'ticker' && measuresOverTime(r.condition.measure));
  if (overTime.length === 0) return [];
  const out: TickerRecord[] = [];
  for (const t of tickers.values()) {
    if (overTime.some((r) => matchesAll(r.match, { exchange, symbol: t.symbol, kind: r.condition.type === 'ticker' ? r.condition.measure : undefined }))) out.push(t);
  }
  return out;
}
