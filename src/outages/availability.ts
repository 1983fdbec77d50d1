import type { Direction, OutageSpan, OutageTotals, TotalsQuery } from './model';

/** An outage as the index reads it, raw (an array: a year's 200,000 rows load in a third of the time). */
export type OutageRow = [exchange: string, coin: string, network: string, direction: Direction, from: number | null, began: number, to: number | null];

/** The store's outages as the availability index reads them (a backend of the store port implements it). */
export interface OutageRowSource {
  /** The outages with an id above `afterId` that ended after `horizon` or go on, by id, at most `limit` (-1: all); each with its id first. */
  page(afterId: number, horizon: number, limit: number): [number, ...OutageRow][];
  /** Every outage that ended after `horizon`, and every ongoing one. */
  held(horizon: number): Iterable<OutageRow>;
  /** Every outage of an exchange, or of one of its coins. */
  of(exchange: string, coin?: string): Iterable<OutageRow>;
  /** Closed time and outages per network and direction within [start, now], aggregated by the table itself (what the index answers, for a window it does not hold). */
  totalsOver(q: TotalsQuery): OutageTotals[];
  /** The outages of one network that began before `now` and lasted past `start`, oldest first, read from the table. */
  spansOver(exchange: string, coin: string, network: string, start: number, now: number): OutageSpan[];
}

/** How far back of the first query's `now` the index holds outages: the longest window (90 d) and a day. */
const HELD_MS = 91 * 86_400_000;

/** The outages of one network and direction: the ended ones by when they ended, the ongoing ones. */
interface Line {
  network: string;
  direction: Direction;
  /** Ended outages, sorted by `to`; `from` is NaN for one from before watching began. */
  to: number[];
  began: number[];
  from: number[];
  ongoing: { began: number; from: number }[];
}

/**
 * The availability of every network at once, from memory: each network's outages by when they
 * ended, so a window is one binary search and the outages inside it, per network and direction
 * (a year at 8,000 networks: about 200,000 outages, 5 MB; an aggregate over the table read
 * 50,000 rows for a 90-day window, 200 ms). Per-day rollups were measured as no better: at a
 * closure a month lasting up to two days, a network has more closed days than outages.
 *
 * The store's table stays the truth (read through OutageRowSource, which a backend implements).
 * The index is loaded at its first use and never written ahead of it: a write only names what
 * it touched (a coin of an exchange, an exchange, or everything, as the store tells), and those
 * are read back from the table before the next answer. So it is
 * consistent across restarts (made from the table), retention pruning (everything re-read) and a
 * rolled-back transaction (the table is re-read as it stands).
 */
export class OutageIndex {
  /** exchange -> coin -> its lines; undefined until first used. */
  private lines: Map<string, Map<string, Line[]>> | undefined;
  private stale: { all: boolean; exchanges: Set<string>; coins: Map<string, Set<string>> } = { all: false, exchanges: new Set(), coins: new Map() };
  /**
   * The index holds the outages that ended after this (and the ongoing ones): set at the first
   * query, HELD_MS before its `now` (or at its `start` when earlier). A window starting before it
   * is answered by the table (OutageRowSource.totalsOver), as exactly; none of the API's does (90 d at most).
   */
  private horizon = Infinity;
  /** While warm() loads the lines in turns: the id of the last row loaded. */
  private warming: { lastId: number } | undefined;

  constructor(private readonly rows: OutageRowSource) {}

  /**
   * Loads the index ahead of its first use (at a start, before the status page is served: a
   * year at 8,000 networks is 200,000 rows, 0.4 s, which a first query would otherwise wait for).
   */
  warm(now: number): void {
    if (this.lines !== undefined) return;
    this.hold(now, now);
    this.lines = new Map();
    this.warming = { lastId: 0 };
    this.loadPage(-1);
  }

  /** The next page of a warm load (all of the rest when `limit` is -1); false once nothing is left (the load is done). */
  private loadPage(limit: number): boolean {
    const warming = this.warming;
    if (warming === undefined) return false;
    const rows = this.rows.page(warming.lastId, this.horizon, limit);
    if (rows.length === 0) {
      this.warming = undefined;
      return false;
    }
    warming.lastId = (rows[rows.length - 1] as [number, ...OutageRow])[0];
    this.add(rows.map((r) => r.slice(1) as OutageRow));
    return true;
  }

  /** A write changed outages: of one coin, of one exchange, or (no argument) any. */
  touched(exchange?: string, coin?: string): void {
    if (this.lines === undefined) return;
    if (exchange === undefined) this.stale.all = true;
    else if (coin === undefined) this.stale.exchanges.add(exchange);
    else {
      const coins = this.stale.coins.get(exchange) ?? new Set<string>();
      coins.add(coin);
      this.stale.coins.set(exchange, coins);
    }
  }

  /** The same rows as the table's aggregate (OutageRowSource.totalsOver), in no particular order. */
  totals(q: TotalsQuery): OutageTotals[] {
    this.hold(q.start, q.now);
    if (q.start < this.horizon) return this.rows.totalsOver(q);
    const lines = this.fresh();
    const out: OutageTotals[] = [];
    const push = (exchange: string, coin: string, line: Line): void => {
      if (q.network === undefined || line.network === q.network) lineTotals(out, exchange, coin, line, q.start, q.now);
    };
    if (q.exchange !== undefined && q.coin !== undefined) {
      // One coin (the status page asks per network): no walk.
      for (const line of lines.get(q.exchange)?.get(q.coin) ?? []) push(q.exchange, q.coin, line);
      return out;
    }
    const exchanges = q.exchange === undefined ? lines : new Map([[q.exchange, lines.get(q.exchange)]]);
    for (const [exchange, coins] of exchanges) {
      if (coins === undefined) continue;
      const picked = q.coin === undefined ? coins : new Map([[q.coin, coins.get(q.coin)]]);
      for (const [coin, list] of picked) {
        for (const line of list ?? []) push(exchange, coin, line);
      }
    }
    return out;
  }

  /** The outages of one network that began before `now` and lasted past `start`, oldest first (the status page's bars). */
  spans(exchange: string, coin: string, network: string, start: number, now: number): OutageSpan[] {
    this.hold(start, now);
    if (start < this.horizon) {
      return this.rows.spansOver(exchange, coin, network, start, now);
    }
    const out: OutageSpan[] = [];
    for (const line of this.fresh().get(exchange)?.get(coin) ?? []) {
      if (line.network !== network) continue;
      for (let i = firstEndedAfter(line, start); i < line.to.length; i++) {
        const began = line.began[i] as number;
        if (began < now) out.push({ direction: line.direction, began, from: nullable(line.from[i] as number), to: line.to[i] as number });
      }
      for (const o of line.ongoing) if (o.began < now) out.push({ direction: line.direction, began: o.began, from: nullable(o.from), to: null });
    }
    return out.sort((a, b) => a.began - b.began);
  }

  /** Sets the horizon at the first query. */
  private hold(start: number, now: number): void {
    if (this.horizon === Infinity) this.horizon = Math.min(start, now - HELD_MS);
  }

  /** The lines, with what writes touched read back from the table. */
  private fresh(): Map<string, Map<string, Line[]>> {
    // A warm load under way: the rest at once (then what writes touched meanwhile, below).
    if (this.warming !== undefined) this.loadPage(-1);
    const stale = this.stale;
    if (this.lines !== undefined && !stale.all && stale.exchanges.size === 0 && stale.coins.size === 0) return this.lines;
    if (this.lines === undefined || stale.all) {
      this.warming = undefined;
      this.lines = new Map();
      this.add(this.rows.held(this.horizon));
    } else {
      for (const exchange of stale.exchanges) {
        this.lines.delete(exchange);
        this.add(this.rows.of(exchange));
      }
      for (const [exchange, coins] of stale.coins) {
        if (stale.exchanges.has(exchange)) continue;
        for (const coin of coins) {
          this.lines.get(exchange)?.delete(coin);
          this.add(this.rows.of(exchange, coin));
        }
      }
    }
    this.stale = { all: false, exchanges: new Set(), coins: new Map() };
    return this.lines;
  }

  private add(rows: Iterable<OutageRow>): void {
    const lines = this.lines as Map<string, Map<string, Line[]>>;
    const added = new Set<Line>();
    const found = new Map<string, Line>();
    for (const [exchange, coin, network, direction, fromAt, began, to] of rows) {
      const key = `${exchange}\u0000${coin}\u0000${network}\u0000${direction}`;
      let line = found.get(key);
      if (line === undefined) {
        const coins = lines.get(exchange) ?? new Map<string, Line[]>();
        lines.set(exchange, coins);
        const list = coins.get(coin) ?? [];
        coins.set(coin, list);
        // A line an earlier page of a warm load began.
        line = list.find((l) => l.network === network && l.direction === direction);
        if (line === undefined) {
          line = { network, direction, to: [], began: [], from: [], ongoing: [] };
          list.push(line);
        }
        found.set(key, line);
      }
      const from = fromAt ?? NaN;
      if (to === null) line.ongoing.push({ began, from });
      else {
        line.to.push(to);
        line.began.push(began);
        line.from.push(from);
        added.add(line);
      }
    }
    for (const line of added) sortByTo(line);
  }
}

function sortByTo(line: Line): void {
  if (line.to.every((t, i) => i === 0 || (line.to[i - 1] as number) <= t)) return;
  const order = line.to.map((_, i) => i).sort((a, b) => (line.to[a] as number) - (line.to[b] as number));
  line.to = order.map((i) => line.to[i] as number);
  line.began = order.map((i) => line.began[i] as number);
  line.from = order.map((i) => line.from[i] as number);
}

const nullable = (n: number): number | null => (Number.isNaN(n) ? null : n);

/** The index of the first ended outage of a line that ended after `start`. */
function firstEndedAfter(line: Line, start: number): number {
  let lo = 0;
  let hi = line.to.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((line.to[mid] as number) > start) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The table aggregate's row for one line, pushed onto `out` when it has one: the outages that began before `now` and lasted past `start`. */
function lineTotals(out: OutageTotals[], exchange: string, coin: string, line: Line, start: number, now: number): void {
  let any = false;
  let closedMs = 0;
  let count = 0;
  let reopened = 0;
  let reopenedMs = 0;
  for (let i = firstEndedAfter(line, start); i < line.to.length; i++) {
    const began = line.began[i] as number;
    if (!(began < now)) continue;
    const to = line.to[i] as number;
    const from = line.from[i] as number;
    any = true;
    closedMs += Math.max(0, Math.min(to, now) - Math.max(began, start));
    if (from >= start) {
      count++;
      if (to <= now) {
        reopened++;
        reopenedMs += to - from;
      }
    }
  }
  for (const o of line.ongoing) {
    if (!(o.began < now)) continue;
    any = true;
    closedMs += Math.max(0, now - Math.max(o.began, start));
    if (o.from >= start) count++;
  }
  if (any) out.push({ exchange, coin, network: line.network, direction: line.direction, closedMs, count, reopened, reopenedMs });
}
