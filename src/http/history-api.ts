/**
 * The history API (GET /api/v1/outages and /api/v1/availability), and what it, the feed and
 * the badges read from the running daemon (HistorySource).
 */
import express, { type Router } from 'express';
import type { Direction, Outage, OutageQuery, OutageTotals } from '../outages/model';
import type { ChangeQuery, StoredChange } from '../storage/port';
import { answerOtherMethods } from '../lib/other-methods';
import { iso, methodNotAllowed, one, parseLimit, parseSince, singleParamsOnly, takesParams } from './api';
import { outageMessage } from './closed-since';
import type { NoticeLists } from '../notices/book-json';

/** What the history endpoints (outages, availability, feed, badges) read from the running daemon. */
export interface HistorySource {
  outages(q: OutageQuery): Outage[];
  totals(q: { exchange?: string; coin?: string; network?: string; start: number; now: number }): OutageTotals[];
  /** When watching each exchange began (ms). */
  watching(): Map<string, number>;
  /** The networks watched now, per exchange (from the last coin lists). */
  networks(): Iterable<NetworkKey>;
  /** The current state of one network, or undefined when it is not watched. */
  network(exchange: string, coin: string, network: string): { deposit: boolean; withdraw: boolean } | undefined;
  changes(q: ChangeQuery): StoredChange[];
  /** Each watched exchange's notice lists, for the feed's announcement and maintenance entries (absent: none). */
  notices?(): Iterable<NoticeLists>;
  /** A network's canonical chain, when known. */
  chainOf?(exchange: string, coin: string, network: string): string | null;
  now(): number;
}

export interface NetworkKey {
  exchange: string;
  coin: string;
  network: string;
}

const DIRECTIONS: readonly Direction[] = ['deposit', 'withdraw'];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The windows availability is counted over: 1h to 90d. */
const MIN_WINDOW = HOUR;
const MAX_WINDOW = 90 * DAY;

/** `window`: whole hours or days (`1h`, `24h`, `7d`, `90d`), from 1h to 90d; the 400 text when wrong. */
export function parseWindow(text: string): number | string {
  const m = /^(\d{1,4})([hd])$/.exec(text);
  const ms = m === null ? NaN : Number(m[1]) * (m[2] === 'h' ? HOUR : DAY);
  if (!(ms >= MIN_WINDOW && ms <= MAX_WINDOW)) return 'window: whole hours or days from 1h to 90d (1h, 24h, 7d, 30d, 90d)';
  return ms;
}

/** One outage as the API shows it (DESIGN.md section 4). */
export function outageView(o: Outage, now: number, chain: string | null) {
  return {
    exchange: o.exchange,
    coin: o.coin,
    network: o.network,
    chain,
    direction: o.direction,
    from: o.from === null ? null : iso(o.from),
    to: o.to === null ? null : iso(o.to),
    // Of known length only: an outage from before watching began has none.
    duration_seconds: o.from === null ? null : Math.max(0, (o.to ?? now) - o.from) / 1000,
    message: outageMessage(o),
  };
}

export interface DirectionAvailability {
  open_ratio: number | null;
  outages: number;
  mttr_seconds: number | null;
}

interface Tally {
  spanMs: number;
  closedMs: number;
  count: number;
  reopened: number;
  reopenedMs: number;
}

function tallyView(t: Tally): DirectionAvailability {
  return {
    open_ratio: t.spanMs > 0 ? Math.round(((t.spanMs - Math.min(t.closedMs, t.spanMs)) / t.spanMs) * 1e6) / 1e6 : null,
    outages: t.count,
    mttr_seconds: t.reopened > 0 ? t.reopenedMs / t.reopened / 1000 : null,
  };
}

/**
 * Availability per network and direction over `windowMs` up to `now`, each exchange's window
 * starting no earlier than when watching it began (an exchange not yet watched: open_ratio
 * null); the networks watched now and any with an outage in the window; per-exchange rollups.
 */
export function availability(source: HistorySource, q: { exchange?: string; coin?: string; network?: string }, windowMs: number, now: number) {
  const start = now - windowMs;
  const watching = source.watching();
  const spanOf = (exchange: string): number => {
    const since = watching.get(exchange);
    return since === undefined ? 0 : Math.max(0, now - Math.max(start, since));
  };
  const key = (e: string, c: string, n: string): string => `${e}\u0000${c}\u0000${n}`;
  const nets = new Map<string, { key: string; id: NetworkKey; deposit: Tally; withdraw: Tally }>();
  const spans = new Map<string, number>();
  /** The network's entry (`id` is only read: a network or a totals row serves as it is). */
  const entry = (id: NetworkKey) => {
    const k = key(id.exchange, id.coin, id.network);
    let e = nets.get(k);
    if (e === undefined) {
      let span = spans.get(id.exchange);
      if (span === undefined) spans.set(id.exchange, (span = spanOf(id.exchange)));
      e = {
        key: k,
        id,
        deposit: { spanMs: span, closedMs: 0, count: 0, reopened: 0, reopenedMs: 0 },
        withdraw: { spanMs: span, closedMs: 0, count: 0, reopened: 0, reopenedMs: 0 },
      };
      nets.set(k, e);
    }
    return e;
  };
  for (const n of source.networks()) {
    if ((q.exchange !== undefined && n.exchange !== q.exchange) || (q.coin !== undefined && n.coin !== q.coin) || (q.network !== undefined && n.network !== q.network)) continue;
    entry(n);
  }
  for (const t of source.totals({ ...q, start, now })) {
    const d = entry(t)[t.direction];
    d.closedMs += t.closedMs;
    d.count += t.count;
    d.reopened += t.reopened;
    d.reopenedMs += t.reopenedMs;
  }
  // By exchange, coin, network: one compare of the keys (NUL sorts before any character of a name).
  const sorted = [...nets.values()].sort((a, b) => cmp(a.key, b.key));
  const rollups = new Map<string, Record<Direction, Tally>>();
  for (const n of sorted) {
    const r = rollups.get(n.id.exchange) ?? { deposit: blankTally(), withdraw: blankTally() };
    rollups.set(n.id.exchange, r);
    for (const d of DIRECTIONS) {
      r[d].spanMs += n[d].spanMs;
      r[d].closedMs += Math.min(n[d].closedMs, n[d].spanMs);
      r[d].count += n[d].count;
      r[d].reopened += n[d].reopened;
      r[d].reopenedMs += n[d].reopenedMs;
    }
  }
  return {
    networks: sorted.map((n) => ({ exchange: n.id.exchange, coin: n.id.coin, network: n.id.network, deposit: tallyView(n.deposit), withdraw: tallyView(n.withdraw) })),
    exchanges: [...rollups].map(([exchange, r]) => ({ exchange, since: iso(watching.get(exchange) ?? null), deposit: tallyView(r.deposit), withdraw: tallyView(r.withdraw) })),
  };
}

function blankTally(): Tally {
  return { spanMs: 0, closedMs: 0, count: 0, reopened: 0, reopenedMs: 0 };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** GET /api/v1/outages and /api/v1/availability (DESIGN.md section 4). */
export function historyApiRouter(source: HistorySource): Router {
  const r = express.Router();
  r.use(singleParamsOnly);

  r.get('/outages', takesParams('exchange', 'coin', 'network', 'direction', 'since', 'limit'), (req, res) => {
    const q = req.query;
    const bad = (error: string): void => {
      res.status(400).json({ status: 'error', error });
    };
    const limit = parseLimit(q.limit, 100);
    if (typeof limit === 'string') return bad(limit);
    const query: OutageQuery = { limit };
    const since = one(q.since);
    if (since !== undefined) {
      const t = parseSince(since);
      if (t === undefined) return bad('since: use RFC 3339 or milliseconds since the epoch');
      query.since = t;
    }
    const direction = one(q.direction);
    if (direction !== undefined) {
      if (direction !== 'deposit' && direction !== 'withdraw') return bad('direction: deposit or withdraw');
      query.direction = direction;
    }
    for (const key of ['exchange', 'coin', 'network'] as const) {
      const v = one(q[key]);
      if (v !== undefined) query[key] = v;
    }
    const now = source.now();
    const chain = source.chainOf ?? (() => null);
    res.json({ outages: source.outages(query).map((o) => outageView(o, now, chain(o.exchange, o.coin, o.network))) });
  });

  r.get('/availability', takesParams('exchange', 'coin', 'network', 'window'), (req, res) => {
    const q = req.query;
    const window = one(q.window) ?? '7d';
    const ms = parseWindow(window);
    if (typeof ms === 'string') {
      res.status(400).json({ status: 'error', error: ms });
      return;
    }
    const filter: { exchange?: string; coin?: string; network?: string } = {};
    for (const key of ['exchange', 'coin', 'network'] as const) {
      const v = one(q[key]);
      if (v !== undefined) filter[key] = v;
    }
    res.json({ window, ...availability(source, filter, ms, source.now()) });
  });
  answerOtherMethods(r, methodNotAllowed);
  return r;
}
