import type { Alert } from '../alerts/alert';
import type { Outage } from '../outages/model';
import type { StoredChange } from '../storage/port';
import type { NetworkRecord } from '../snapshot/model';
import { closedAt, closedMessage, outageMessage, type Closures } from './closed-since';
import { closedNetworks, firingByExchange, summarize, type ExchangeInput, type RouteView } from './state-view';
import { span } from '../lib/duration';
import type { TimelineItem } from './status-cards';
import { filterWords, matchesWords, networkKey, networkSections, type NetworkInput } from './status-networks';
import type { StatusView } from './status-page';
import { noticeBanner } from './status-notices';
import type { NoticeLists } from '../notices/book-json';

/** Rows each table of the status page shows at most; the rest is counted ("and N more"). */
export const STATUS_ROWS = { exchanges: 50, disabled: 500, alerts: 500, changes: 50, timeline: 40 } as const;

/** With a filter (`?q=`), the timeline and the recent changes are the matching ones among this many of the newest outages and changes. */
export const FILTER_SCANNED = 2_000;

/** What the status page is built from; the daemon gathers it, nothing here does I/O. */
export interface StatusInput {
  now: number;
  exchanges: readonly ExchangeInput[];
  alerts: Iterable<Alert>;
  /** When a network last closed in each direction, as far as the kept history knows. */
  closedSince(exchange: string, coin: string, network: string): Closures | undefined;
  /** The newest changes, at least STATUS_ROWS.changes of them when there are (FILTER_SCANNED with a filter). */
  changes: readonly StoredChange[];
  /** How many changes are kept (a bounded count: `atLeast` when it stopped counting). */
  changesTotal: { n: number; atLeast: boolean };
  /** The transfer rules' routes. */
  routes?: readonly RouteView[];
  /** The networks' section (watched first, bars, filter): what it reads besides the exchanges. */
  networks?: Omit<NetworkInput, 'now' | 'exchanges' | 'closedSince'>;
  /** The newest outages (by when they began), for the timeline. */
  outages?: readonly Outage[];
  /** Each exchange's notice lists, for the banner of windows and announcements. */
  notices?: Iterable<NoticeLists>;
}

const flagWord = (f: boolean | null): string => (f === true ? 'open' : f === false ? 'closed' : 'unknown');

const SEVERITY_RANK: Record<string, number> = { critical: 0, error: 1, warning: 2, info: 3 };

const show = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** A closure older than the kept history: sorts after every known time. */
const UNKNOWN = -1;

/** The label values of an alert the filter reads (the names a person types: exchange, coin, network, chain, symbol), lower case. */
const ALERT_NAMES = ['exchange', 'to_exchange', 'coin', 'network', 'chain', 'symbol'] as const;
const alertKey = (a: Alert): string => ALERT_NAMES.map((l) => a.labels[l]).filter((v) => v !== undefined && v !== '').join(' ').toLowerCase();
type Named = { exchange: string; coin?: string | undefined; network?: string | undefined; symbol?: string | undefined };
/** A change's or an outage's names, with its network's chain, lower case. */
const namesKey = (c: Named, chainOf: (exchange: string, network: string) => string | null): string =>
  [c.exchange, c.coin, c.network, c.network === undefined ? null : chainOf(c.exchange, c.network), c.symbol].filter(Boolean).join(' ').toLowerCase();

/**
 * The status page's data: health, what is closed and since when (newest closures first), what
 * fires (most severe first), what changed. Linear in networks and alerts, with one lookup per
 * closed network; every table capped at STATUS_ROWS with its total kept. The filter (`?q=`)
 * narrows every list but the exchanges' health: each row is kept when its names (exchange, coin,
 * network, chain, symbol) hold every word, and the totals count what matches.
 */
export function buildStatusView(input: StatusInput): StatusView {
  const all = [...input.alerts];
  const firing = firingByExchange(all);
  const exchanges = input.exchanges.map((e) => summarize(e, firing));
  const want = filterWords(input.networks?.query.q);
  const chainOf = input.networks?.chainOf ?? (() => null);
  const kept = (key: string): boolean => want.length === 0 || matchesWords(key, want);
  const changeKey = (c: Named): string => namesKey(c, chainOf);

  // Rows are built for the shown page only; the rest are sorted as (since, where) pairs.
  const closed: { exchange: string; coin: string; n: NetworkRecord; since: number; k: string }[] = [];
  for (const e of input.exchanges) {
    for (const { coin, n } of closedNetworks(e.snapshot)) {
      const k = networkKey(e.name, coin, n.network, chainOf(e.name, n.network));
      if (!kept(k)) continue;
      const since = closedAt(n, input.closedSince(e.name, coin, n.network)) ?? UNKNOWN;
      closed.push({ exchange: e.name, coin, n, since, k });
    }
  }
  closed.sort((a, b) => b.since - a.since);
  const disabled = closed.slice(0, STATUS_ROWS.disabled).map(({ exchange, coin, n, since, k }) => ({
    exchange, coin, network: n.network, deposit: n.depositEnable, withdraw: n.withdrawEnable,
    since: since === UNKNOWN ? null : since,
    message: closedMessage(n),
    k,
  }));

  const rank = (a: Alert): number => SEVERITY_RANK[a.labels.severity ?? ''] ?? 4;
  const firingNow = all.filter((a) => a.status === 'firing' && kept(alertKey(a)));
  firingNow.sort((a, b) => rank(a) - rank(b) || b.activeAt - a.activeAt);
  const alerts = firingNow.slice(0, STATUS_ROWS.alerts).map((a) => ({ severity: a.labels.severity ?? '', alertname: a.labels.alertname ?? '', summary: a.annotations.summary ?? '', since: a.activeAt, k: alertKey(a) }));
  const changes = want.length === 0 ? input.changes : input.changes.filter((c) => kept(changeKey(c)));
  const changesTotal = want.length === 0 ? input.changesTotal : { n: changes.length, atLeast: input.changes.length >= FILTER_SCANNED };
  const routeKey = (r: RouteView): string => `${r.coin} ${r.from} ${r.to} ${r.chains.map((c) => c.chain).join(' ')}`.toLowerCase();
  const routes = input.routes?.filter((r) => kept(routeKey(r)));

  return {
    ...(input.networks !== undefined && { networks: networkSections({ ...input.networks, now: input.now, exchanges: input.exchanges, closedSince: input.closedSince }) }),
    ...(input.notices !== undefined && { notices: noticeBanner(input.notices, input.now) }),
    ...(input.outages !== undefined && { timeline: timeline(input.outages.filter((o) => kept(changeKey(o))), changes, input.now, changeKey) }),
    generatedAt: input.now,
    exchanges: exchanges.slice(0, STATUS_ROWS.exchanges),
    exchangesTotal: exchanges.length,
    disabled,
    disabledTotal: closed.length,
    alerts,
    alertsTotal: firingNow.length,
    changes: changes.slice(0, STATUS_ROWS.changes).map((c) => ({
      at: c.at, exchange: c.exchange, kind: c.kind,
      subject: [c.coin, c.network, c.symbol].filter(Boolean).join(' / '),
      before: show(c.before), after: show(c.after),
      k: changeKey(c),
    })),
    changesTotal,
    ...(routes !== undefined && {
      routes: routes.map((r) => ({
        coin: r.coin, from: r.from, to: r.to, state: r.state, open: r.open, k: routeKey(r),
        chains: r.chains.map((c) => `${c.chain}: ${flagWord(c.withdraw)} / ${flagWord(c.deposit)}`).join('; '),
      })),
    }),
  };
}

/** Where a timeline entry happened: `USDT / Tron(TRC20) (main)`. */
function where(c: { coin?: string | undefined; network?: string | undefined; symbol?: string | undefined; exchange: string }): string {
  return `${[c.coin, c.network, c.symbol].filter(Boolean).join(' / ')} (${c.exchange})`;
}

/**
 * The timeline: the newest outages as they began and ended, and the newest changes that are not
 * those (a closure is told once), newest first.
 */
function timeline(outages: readonly Outage[], changes: readonly StoredChange[], now: number, key: (c: Named) => string): TimelineItem[] {
  const items: TimelineItem[] = [];
  const dir = (d: string): string => (d === 'deposit' ? 'deposits' : 'withdrawals');
  for (const o of outages) {
    const message = outageMessage(o);
    if (o.from !== null) items.push({ at: o.from, kind: 'closed', where: where(o), k: key(o), text: `${dir(o.direction)} closed${o.to === null ? `, still closed after ${span(now - o.from)}` : ''}`, detail: message });
    if (o.to !== null) items.push({ at: o.to, kind: 'reopened', where: where(o), k: key(o), text: `${dir(o.direction)} reopened${o.from === null ? '' : ` after ${span(o.to - o.from)}`}`, detail: message });
  }
  const told = /^(deposit|withdraw)_(disabled|enabled)$/;
  for (const c of changes) {
    if (told.test(c.kind)) continue;
    items.push({ at: c.at, kind: 'change', where: where(c), k: key(c), text: c.kind.replace(/_/g, ' '), detail: c.after === null || c.after === undefined || typeof c.after === 'boolean' ? null : String(c.after) });
  }
  items.sort((a, b) => b.at - a.at);
  return items.slice(0, STATUS_ROWS.timeline);
}
