import type { Alert } from '../alerts/alert';
import type { NoticeLists } from '../notices/book-json';
import type { Rule } from '../rules/model';
import type { TransferRoute } from '../rules/transfer';
import type { Change } from '../snapshot/changes';
import type { Outage } from '../outages/model';
import type { Store } from '../storage/port';
import { ClosedSince, type Closures } from './closed-since';
import { routeView, stateView, type ExchangeInput, type Page, type StateView } from './state-view';
import { filterWords, type StatusQuery } from './status-networks';
import type { StatusView } from './status-page';
import { Watched } from './status-watch';
import { buildStatusView, FILTER_SCANNED, STATUS_ROWS } from './status-view';

/** The status page counts the kept changes up to this many (a bounded count stays cheap). */
const CHANGES_COUNTED = 100_000;

/** What the views read from the running daemon. */
export interface ViewSource {
  now(): number;
  exchanges(): ExchangeInput[];
  alerts(): Iterable<Alert>;
  /** The history (absent until the store is open). */
  store(): Pick<Store, 'queryChanges' | 'countChanges' | 'closedSince' | 'queryOutages' | 'networkOutages' | 'outageTotals' | 'watchingSince'> | undefined;
  /** The rules in force: the networks and symbols they name come first on the status page. */
  rules?(): readonly Rule[];
  /** The canonical chain of an exchange's network (null when unknown). */
  chainOf?(exchange: string, network: string): string | null;
  /** The transfer rules' routes, as the snapshots stand. */
  routes?(): readonly (TransferRoute & { alert: string })[];
  /** Each exchange's notice lists (the status page's banner of windows and announcements). */
  notices?(): Iterable<NoticeLists>;
}

/**
 * The status page and /api/v1/state over the daemon's data: a render costs one pass over the
 * networks and alerts and two small queries, never a query per network (the closure times are
 * kept from the accepted changes, see ClosedSince).
 */
export class Views {
  private readonly closedSince: ClosedSince;
  private readonly watched = new Watched();

  constructor(private readonly source: ViewSource) {
    this.closedSince = new ClosedSince((exchange) => source.store()?.closedSince(exchange) ?? []);
  }

  statusView(query: StatusQuery = {}): StatusView {
    const store = this.source.store();
    const now = this.source.now();
    const counted = store?.countChanges(CHANGES_COUNTED) ?? 0;
    // With a filter, the timeline and the changes are the matching ones among the newest FILTER_SCANNED.
    const filtered = filterWords(query.q).length > 0;
    const rows = (n: number): number => (filtered ? FILTER_SCANNED : n);
    return buildStatusView({
      now,
      exchanges: this.source.exchanges(),
      alerts: this.source.alerts(),
      closedSince: (exchange, coin, network) => this.closures(exchange, coin, network),
      changes: store?.queryChanges({ limit: rows(STATUS_ROWS.changes) }) ?? [],
      changesTotal: { n: counted, atLeast: counted >= CHANGES_COUNTED },
      routes: (this.source.routes?.() ?? []).map(routeView),
      notices: this.source.notices?.() ?? [],
      networks: {
        rules: this.source.rules?.() ?? [],
        watched: this.watched,
        chainOf: (exchange, network) => this.source.chainOf?.(exchange, network) ?? null,
        spans: (exchange, coin, network, start, end) => store?.networkOutages(exchange, coin, network, start, end) ?? [],
        totals: (start, end) => store?.outageTotals({ start, now: end }) ?? [],
        watching: store?.watchingSince() ?? new Map(),
        query,
      },
      // The newest closures and the newest reopenings: an outage that began long ago and ended now belongs in the timeline too.
      outages: store === undefined ? [] : newestEvents(store.queryOutages({ limit: rows(STATUS_ROWS.timeline) }), store.queryOutages({ ended: true, limit: rows(STATUS_ROWS.timeline) })),
    });
  }

  state(page: Page): { data: StateView; next: number | null } {
    return stateView(this.source.exchanges(), this.source.alerts(), page, {
      chainOf: (exchange, network) => this.source.chainOf?.(exchange, network) ?? null,
      routes: () => this.source.routes?.() ?? [],
    });
  }

  /** When a network closed, from the closures kept (see ClosedSince): what the status page and the chat bots' /closed read. */
  closures(exchange: string, coin: string, network: string): Closures | undefined {
    return this.closedSince.get(exchange, coin, network);
  }

  /** Accepted changes (after they are stored). */
  observe(exchange: string, changes: readonly Change[]): void {
    this.closedSince.observe(exchange, changes);
  }

  /** An exchange no longer watched. */
  forget(exchange: string): void {
    this.closedSince.forget(exchange);
  }
}

/** Outages of two lists, each once (by id). */
function newestEvents(began: readonly Outage[], ended: readonly Outage[]): Outage[] {
  const seen = new Set(began.map((o) => o.id));
  return [...began, ...ended.filter((o) => !seen.has(o.id))];
}
