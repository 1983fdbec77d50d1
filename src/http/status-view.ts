import type { Alert } from '../alerts/alert';
import type { Outage, StoredChange } from '../store/store';
import type { NetworkRecord } from '../snapshot/model';
import { closedAt, closedMessage, outageMessage, type Closures } from './closed-since';
import { closedNetworks, firingByExchange, summarize, type ExchangeInput, type RouteView } from './state-view';
import { span } from '../lib/duration';
import type { TimelineItem } from './status-cards';
import { networkSections, type NetworkInput } from './status-networks';
import type { StatusView } from './status-page';
import { noticeBanner } from './status-notices';
import type { NoticeLists } from '../notices/book-json';

/** Rows each table of the status page shows at most; the rest is counted ("and N more"). */
export const STATUS_ROWS = { exchanges: 50, disabled: 500, alerts: 500, changes: 50, timeline: 40 } as const;

/** What the status page is built from; the daemon gathers it, nothing here does I/O. */
export interface StatusInput {
  now: number;
  exchanges: readonly ExchangeInput[];
  alerts: Iterable<Alert>;
  /** When a network last closed in each direction, as far as the kept history knows. */
  closedSince(exchange: string, coin: string, network: string): Closures | undefined;
  /** The newest changes, at least STATUS_ROWS.changes of them when there are. */
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

/**
 * The status page's data: health, what is closed and since when (newest closures first), what
 * fires (most severe first), what changed. Linear in networks and alerts, with one lookup per
 * closed network; every table capped at STATUS_ROWS with its total kept.
 */
export function buildStatusView(input: StatusInput): StatusView {
  const all = [...input.alerts];
  const firing = firingByExchange(all);
  const exchanges = input.exchanges.map((e) => summarize(e, firing));

  // Rows are built for the shown page only; the rest are sorted as (since, where) pairs.
  const closed: { exchange: string; coin: string; n: NetworkRecord; since: number }[] = [];
  for (const e of input.exchanges) {
    for (const { coin, n } of closedNetworks(e.snapshot)) {
      const since = closedAt(n, input.closedSince(e.name, coin, n.network)) ?? UNKNOWN;
      closed.push({ exchange: e.name, coin, n, since });
    }
  }
  closed.sort((a, b) => b.since - a.since);
  const disabled = closed.slice(0, STATUS_ROWS.disabled).map(({ exchange, coin, n, since }) => ({
    exchange, coin, network: n.network, deposit: n.depositEnable, withdraw: n.withdrawEnable,
    since: since === UNKNOWN ? null : since,
    message: closedMessage(n),
  }));

  const rank = (a: Alert): number => SEVERITY_RANK[a.labels.severity ?? ''] ?? 4;
  const firingNow = all.filter((a) => a.status === 'firing');
  firingNow.sort((a, b) => rank(a) - rank(b) || b.activeAt - a.activeAt);
  const alerts = firingNow.slice(0, STATUS_ROWS.alerts).map((a) => ({ severity: a.labels.severity ?? '', alertname: a.labels.alertname ?? '', summary: a.annotations.summary ?? '', since: a.activeAt }));

  return {
    ...(input.networks !== undefined && { networks: networkSections({ ...input.networks, now: input.now, exchanges: input.exchanges, closedSince: input.closedSince }) }),
    ...(input.notices !== undefined && { notices: noticeBanner(input.notices, input.now) }),
    ...(input.outages !== undefined && { timeline: timeline(input.outages, input.changes, input.now) }),
    generatedAt: input.now,
    exchanges: exchanges.slice(0, STATUS_ROWS.exchanges),
    exchangesTotal: exchanges.length,
    disabled,
    disabledTotal: closed.length,
    alerts,
    alertsTotal: firingNow.length,
    changes: input.changes.slice(0, STATUS_ROWS.changes).map((c) => ({
      at: c.at, exchange: c.exchange, kind: c.kind,
      subject: [c.coin, c.network, c.symbol].filter(Boolean).join(' / '),
      before: show(c.before), after: show(c.after),
    })),
    changesTotal: input.changesTotal,
    ...(input.routes !== undefined && {
      routes: input.routes.map((r) => ({
        coin: r.coin, from: r.from, to: r.to, state: r.state, open: r.open,
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
function timeline(outages: readonly Outage[], changes: readonly StoredChange[], now: number): TimelineItem[] {
  const items: TimelineItem[] = [];
  const dir = (d: string): string => (d === 'deposit' ? 'deposits' : 'withdrawals');
  for (const o of outages) {
    const message = outageMessage(o);
    if (o.from !== null) items.push({ at: o.from, kind: 'closed', where: where(o), text: `${dir(o.direction)} closed${o.to === null ? `, still closed after ${span(now - o.from)}` : ''}`, detail: message });
    if (o.to !== null) items.push({ at: o.to, kind: 'reopened', where: where(o), text: `${dir(o.direction)} reopened${o.from === null ? '' : ` after ${span(o.to - o.from)}`}`, detail: message });
  }
  const told = /^(deposit|withdraw)_(disabled|enabled)$/;
  for (const c of changes) {
    if (told.test(c.kind)) continue;
    items.push({ at: c.at, kind: 'change', where: where(c), text: c.kind.replace(/_/g, ' '), detail: c.after === null || c.after === undefined || typeof c.after === 'boolean' ? null : String(c.after) });
  }
  items.sort((a, b) => b.at - a.at);
  return items.slice(0, STATUS_ROWS.timeline);
}
