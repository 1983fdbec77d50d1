import type { HistorySource, NetworkKey } from '../http/history-api';
import type { ExchangeInput } from '../http/state-view';
import type { NoticeLists } from '../notices/book-json';
import type { StateStore } from '../store/store';

/**
 * What the history endpoints read, from the store (outages, changes) and the exchanges'
 * current snapshots (the networks watched now and their state, for availability and badges).
 */
export function historySource(src: {
  store(): Pick<StateStore, 'queryOutages' | 'outageTotals' | 'watchingSince' | 'queryChanges'> | undefined;
  exchanges(): ExchangeInput[];
  now(): number;
  /** The canonical chain of a network of an exchange (null when unknown). */
  chainOf?(exchange: string, network: string): string | null;
  /** Each watched exchange's notice lists (the feed's notice entries). */
  notices?(): Iterable<NoticeLists>;
}): HistorySource {
  return {
    ...(src.notices !== undefined && { notices: () => src.notices?.() ?? [] }),
    ...(src.chainOf !== undefined && { chainOf: (exchange: string, _coin: string, network: string) => src.chainOf?.(exchange, network) ?? null }),
    outages: (q) => src.store()?.queryOutages(q) ?? [],
    totals: (q) => src.store()?.outageTotals(q) ?? [],
    watching: () => src.store()?.watchingSince() ?? new Map(),
    changes: (q) => src.store()?.queryChanges(q) ?? [],
    *networks(): Iterable<NetworkKey> {
      for (const ex of src.exchanges()) {
        for (const coin of ex.snapshot?.coins.values() ?? []) {
          for (const n of coin.networkList) yield { exchange: ex.name, coin: coin.coin, network: n.network };
        }
      }
    },
    network(exchange, coin, network) {
      const snapshot = src.exchanges().find((e) => e.name === exchange)?.snapshot;
      const n = snapshot?.coins.get(coin)?.networkList.find((x) => x.network === network);
      return n === undefined ? undefined : { deposit: n.depositEnable, withdraw: n.withdrawEnable };
    },
    now: () => src.now(),
  };
}
