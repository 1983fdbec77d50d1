/**
 * The Snapshot model: what one exchange looked like at one moment. Records keep the spec's
 * own field names (their field lists are in fields.ts); every decimal is the exact text
 * received (never a float), and a field the exchange left out is null.
 */
import type { CoinRecord, TickerRecord } from './fields';

export type { CoinRecord, NetworkRecord, TickerRecord } from './fields';

/**
 * The two lists a snapshot is made of, each read from its own endpoint of the exchange (the
 * `endpoint` label of the poll metrics and of the builtin alerts).
 */
export const ENDPOINTS = ['coins', 'tickers'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/**
 * A record the exchange sent that failed validation. Where its key could be read, the
 * previous value of that key is kept; where it could not, nothing absent from the answer
 * may be read as removed (it might be the broken record).
 */
export interface RecordIssue {
  entity: 'coin' | 'network' | 'ticker';
  coin?: string;
  network?: string;
  symbol?: string;
  /** Position in the answer (index in the array; for a network, in its coin's networkList). */
  index: number;
  reason: string;
}

export interface Snapshot {
  exchange: string;
  /** When the coin list was taken (ms since epoch), or null before the first success. */
  coinsAt: number | null;
  /** When the tickers were taken (ms since epoch), or null before the first success. */
  tickersAt: number | null;
  coins: ReadonlyMap<string, CoinRecord>;
  tickers: ReadonlyMap<string, TickerRecord>;
  /**
   * Records set aside on the first answer (malformed, or sent twice with different values)
   * with no previous value to keep, while they stay set aside: unknown, which is neither
   * closed nor missing, and not "listed" or "added" once they read well. Keys are `coin` or
   * `coin\u0000network` (see unknownKey); absent when there are none.
   */
  unknownCoins?: ReadonlySet<string>;
  /** As unknownCoins, for ticker symbols. */
  unknownSymbols?: ReadonlySet<string>;
}

/** The key of a coin (network left out) or of one of its networks in Snapshot.unknownCoins. */
export function unknownKey(coin: string, network?: string): string {
  return network === undefined ? coin : `${coin}\u0000${network}`;
}

export function emptySnapshot(exchange: string): Snapshot {
  return { exchange, coinsAt: null, tickersAt: null, coins: new Map(), tickers: new Map() };
}

/** How many networks the coins have. */
export function networkCount(coins: ReadonlyMap<string, CoinRecord>): number {
  let n = 0;
  for (const c of coins.values()) n += c.networkList.length;
  return n;
}
