import type { CoinRecord } from '../snapshot/model';

/**
 * Per exchange, the coins as the store holds them (the map last written, whole or as a delta):
 * what the next coins write is a delta of. None before the writer wrote them whole, or after a
 * write that failed (the next one is whole).
 */
export class SavedCoins {
  private readonly byExchange = new Map<string, ReadonlyMap<string, CoinRecord>>();

  /**
   * The coins of `next` that are not the very objects last written (merge keeps an unchanged
   * coin's object), and the coins gone; undefined when nothing was written whole before.
   */
  delta(exchange: string, next: ReadonlyMap<string, CoinRecord>): { changed: CoinRecord[]; gone: string[] } | undefined {
    const saved = this.byExchange.get(exchange);
    if (saved === undefined) return undefined;
    const changed: CoinRecord[] = [];
    const gone: string[] = [];
    for (const [coin, c] of next) if (saved.get(coin) !== c) changed.push(c);
    for (const coin of saved.keys()) if (!next.has(coin)) gone.push(coin);
    return { changed, gone };
  }

  /** `coins` are what the store now holds of the exchange. */
  written(exchange: string, coins: ReadonlyMap<string, CoinRecord>): void {
    this.byExchange.set(exchange, coins);
  }

  /** What the store holds is not known (a write failed): the next write is whole. */
  forget(exchange: string): void {
    this.byExchange.delete(exchange);
  }
}
