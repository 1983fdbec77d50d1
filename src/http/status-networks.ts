import type { Rule } from '../rules/model';
import type { NetworkRecord } from '../snapshot/model';
import type { OutageSpan, OutageTotals } from '../outages/model';
import { closedAt, closedMessage, type Closures } from './closed-since';
import type { ExchangeInput } from './state-view';
import { dayBars, firstBarDay, overallRatio, type DayBar } from './status-bars';
import type { Watched } from './status-watch';

/** How the page was asked for: `?q=` (words that must all appear), `?sort=`, `?page=` of the other networks. */
export interface StatusQuery {
  q?: string;
  sort?: NetworkSort;
  page?: number;
}

export const NETWORK_SORTS = ['status', 'availability', 'name'] as const;
export type NetworkSort = (typeof NETWORK_SORTS)[number];

/** Rows of watched networks shown at most, and of the other networks per page. */
export const NETWORK_ROWS = { watched: 100, rest: 50, symbols: 24 } as const;

/** One network as the page shows it: its state now and its last 30 days. */
export interface NetworkCard {
  exchange: string;
  coin: string;
  network: string;
  chain: string | null;
  deposit: boolean;
  withdraw: boolean;
  /** When it closed (the later direction), null: before watching began; undefined: open. */
  since?: number | null;
  message: string | null;
  bars: DayBar[];
  /** Open ratio over the bars' days. */
  ratio: number | null;
}

export interface NetworkSections {
  q: string;
  sort: NetworkSort;
  watched: NetworkCard[];
  watchedTotal: number;
  rest: NetworkCard[];
  restTotal: number;
  page: number;
  pages: number;
  /** The watched symbols with the largest 24-hour moves (either way) first. */
  symbols: { exchange: string; symbol: string; lastPrice: string; change: string | null }[];
  symbolsTotal: number;
}

export interface NetworkInput {
  now: number;
  exchanges: readonly ExchangeInput[];
  rules: readonly Rule[];
  watched: Watched;
  chainOf(exchange: string, network: string): string | null;
  closedSince(exchange: string, coin: string, network: string): Closures | undefined;
  /** The outages of a network within [start, now] (the store's index), and totals of every network. */
  spans(exchange: string, coin: string, network: string, start: number, now: number): OutageSpan[];
  totals(start: number, now: number): OutageTotals[];
  watching: ReadonlyMap<string, number>;
  query: StatusQuery;
}

interface Candidate {
  exchange: string;
  coin: string;
  n: NetworkRecord;
  chain: string | null;
  /** Closed since (ms; -1: before the kept history), or undefined when open. */
  since: number | undefined;
  /** `exchange coin network chain`, lower case: made when first needed (filtering, sorting by name). */
  key?: string;
  /** Closed time over the bars' days (ms), when sorting by it. */
  closed?: number;
}

/** What the filter reads of a network, the server's and the page's script alike: its names and its chain, lower case. */
export const networkKey = (exchange: string, coin: string, network: string, chain: string | null | undefined): string => `${exchange} ${coin} ${network} ${chain ?? ''}`.toLowerCase();

const keyOf = (c: Candidate): string => (c.key ??= networkKey(c.exchange, c.coin, c.n.network, c.chain));

const UNKNOWN = -1;
/** The filter's words, lower case (`?q=USDT  tron` -> usdt, tron). */
export const filterWords = (q: string | undefined): string[] => (q ?? '').trim().toLowerCase().split(/\s+/).filter((w) => w !== '');
/** Whether a row's key (its names, lower case) holds every word of the filter. */
export const matchesWords = (key: string, want: readonly string[]): boolean => want.every((w) => key.includes(w));

/**
 * The status page's networks: those the rules watch first (all of them up to a cap), the rest
 * a page at a time, both narrowed by `q` and sorted; bars are made for the shown rows only (an
 * index lookup each), so a render at 8,000 networks is a pass over them plus a few hundred lookups.
 */
export function networkSections(input: NetworkInput): NetworkSections {
  const q = input.query.q?.trim() ?? '';
  const sort = input.query.sort ?? 'status';
  const want = filterWords(q);
  const watched: Candidate[] = [];
  const rest: Candidate[] = [];
  const moves: { exchange: string; symbol: string; lastPrice: string; ratio: number | null }[] = [];
  for (const e of input.exchanges) {
    for (const c of e.snapshot?.coins.values() ?? []) {
      for (const n of c.networkList) {
        const chain = input.chainOf(e.name, n.network);
        const candidate: Candidate = { exchange: e.name, coin: c.coin, n, chain, since: undefined };
        if (want.length > 0) {
          const key = keyOf(candidate);
          if (!matchesWords(key, want)) continue;
        }
        if (!(n.depositEnable && n.withdrawEnable)) {
          candidate.since = closedAt(n, input.closedSince(e.name, c.coin, n.network)) ?? UNKNOWN;
        }
        (input.watched.network(input.rules, e.name, c.coin, n, chain) ? watched : rest).push(candidate);
      }
    }
    for (const t of e.snapshot?.tickers.values() ?? []) {
      if (!input.watched.symbol(input.rules, e.name, t.symbol)) continue;
      if (!matchesWords(`${e.name} ${t.symbol}`.toLowerCase(), want)) continue;
      moves.push({ exchange: e.name, symbol: t.symbol, lastPrice: t.lastPrice, ratio: changeRatio(t.openPrice, t.lastPrice) });
    }
  }
  const size = (m: (typeof moves)[number]): number => (m.ratio === null ? -1 : Math.abs(m.ratio));
  moves.sort((a, b) => size(b) - size(a) || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  const symbols = moves.slice(0, NETWORK_ROWS.symbols).map((m) => ({ exchange: m.exchange, symbol: m.symbol, lastPrice: m.lastPrice, change: m.ratio === null ? null : `${m.ratio >= 0 ? '+' : ''}${(m.ratio * 100).toFixed(2)} %` }));
  const order = comparator(sort, input);
  watched.sort(order);
  rest.sort(order);
  const pages = Math.max(1, Math.ceil(rest.length / NETWORK_ROWS.rest));
  const page = Math.min(Math.max(1, input.query.page ?? 1), pages);
  const start = firstBarDay(input.now);
  const card = (c: Candidate): NetworkCard => {
    const bars = dayBars(input.spans(c.exchange, c.coin, c.n.network, start, input.now), input.watching.get(c.exchange), input.now);
    return {
      exchange: c.exchange, coin: c.coin, network: c.n.network, chain: c.chain, deposit: c.n.depositEnable, withdraw: c.n.withdrawEnable,
      ...(c.since !== undefined && { since: c.since === UNKNOWN ? null : c.since }),
      message: closedMessage(c.n),
      bars, ratio: overallRatio(bars),
    };
  };
  return {
    q, sort,
    watched: watched.slice(0, NETWORK_ROWS.watched).map(card), watchedTotal: watched.length,
    rest: rest.slice((page - 1) * NETWORK_ROWS.rest, page * NETWORK_ROWS.rest).map(card), restTotal: rest.length,
    page, pages, symbols, symbolsTotal: moves.length,
  };
}

function comparator(sort: NetworkSort, input: NetworkInput): (a: Candidate, b: Candidate) => number {
  const byName = (a: Candidate, b: Candidate): number => {
    const x = keyOf(a);
    const y = keyOf(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
  if (sort === 'name') return byName;
  // The closed time over the bars' days (the worse direction): one pass over the index, made
  // only once a comparison needs it (in a storm every network closed at its own time: never).
  let table: Map<string, number> | undefined;
  const made = (): Map<string, number> => {
    const m = new Map<string, number>();
    for (const t of input.totals(firstBarDay(input.now), input.now)) {
      const k = `${t.exchange}\u0000${t.coin}\u0000${t.network}`;
      m.set(k, Math.max(m.get(k) ?? 0, t.closedMs));
    }
    return m;
  };
  const closed = (c: Candidate): number => (c.closed ??= (table ??= made()).get(`${c.exchange}\u0000${c.coin}\u0000${c.n.network}`) ?? 0);
  if (sort === 'availability') return (a, b) => closed(b) - closed(a) || byName(a, b);
  // status: closed now first (the newest closure first), then the ones closed the longest of late.
  return (a, b) => (b.since ?? -2) - (a.since ?? -2) || closed(b) - closed(a) || byName(a, b);
}

/** The 24-hour change as a ratio, from the open and last prices (DESIGN.md: not priceChangePercent); null when not computable. */
function changeRatio(open: string | null | undefined, last: string): number | null {
  const o = Number(open);
  const l = Number(last);
  return o > 0 && Number.isFinite(l) ? (l - o) / o : null;
}
