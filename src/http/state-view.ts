import type { Alert } from '../alerts/alert';
import type { TransferRoute } from '../rules/transfer';
import { networkCount, type NetworkRecord, type Snapshot } from '../snapshot/model';

/** The last poll of one endpoint, as /api/v1/state and the status page show it. */
export interface PollView {
  at: string;
  ok: boolean;
  kind?: string;
  error?: string;
}

/** What the daemon knows of one exchange, handed to the views. */
export interface ExchangeInput {
  name: string;
  up: boolean;
  polls: Record<'coins' | 'tickers', PollView | null>;
  snapshot: Snapshot | undefined;
}

/** One exchange's health and counts (no per-network rows). */
export interface ExchangeSummary {
  name: string;
  up: boolean;
  polls: Record<'coins' | 'tickers', PollView | null>;
  coinsAt: string | null;
  tickersAt: string | null;
  coins: number;
  networks: number;
  tickers: number;
  alertsFiring: number;
}

/** A network with deposits or withdrawals closed, as /api/v1/state lists it. */
export interface DisabledNetwork {
  coin: string;
  network: string;
  /** The canonical chain (dialects.md section 3), null when unknown. */
  chain: string | null;
  depositEnable: boolean;
  withdrawEnable: boolean;
  depositDesc: string | null;
  withdrawDesc: string | null;
}

/** A transfer rule's route (DESIGN.md section 4) as /api/v1/state shows it. */
export interface RouteView {
  alert: string;
  coin: string;
  from: string;
  to: string;
  /** open, closed, or unknown (an end not polled yet, a flag not sent). */
  state: TransferRoute['state'];
  /** The chains that are routes now. */
  open: string[];
  /** Each chain listed at both ends: withdrawals at `from`, deposits at `to` (null: unknown). */
  chains: { chain: string; withdraw: boolean | null; deposit: boolean | null; state: TransferRoute['state'] }[];
  description: string;
}

export interface StateView {
  exchanges: (ExchangeSummary & { disabled: DisabledNetwork[]; disabledTotal: number })[];
  routes: RouteView[];
}

/** What the state view reads besides the exchanges: chains of networks, and the transfer routes. */
export interface StateExtras {
  chainOf(exchange: string, network: string): string | null;
  routes(): readonly (TransferRoute & { alert: string })[];
}

const NO_EXTRAS: StateExtras = { chainOf: () => null, routes: () => [] };

export function routeView(r: TransferRoute & { alert: string }): RouteView {
  return {
    alert: r.alert,
    coin: r.coin,
    from: r.from,
    to: r.to,
    state: r.state,
    open: r.open,
    chains: r.chains.map((c) => ({ chain: c.chain, withdraw: c.withdraw, deposit: c.deposit, state: c.state })),
    description: r.description,
  };
}

/** A page of a list: `offset` rows skipped, at most `limit` returned. */
export interface Page {
  offset: number;
  limit: number;
}

/** Firing alerts per exchange label, in one pass. */
export function firingByExchange(alerts: Iterable<Alert>): Map<string, number> {
  const n = new Map<string, number>();
  for (const a of alerts) {
    if (a.status !== 'firing') continue;
    const ex = a.labels.exchange ?? '';
    n.set(ex, (n.get(ex) ?? 0) + 1);
  }
  return n;
}

export function summarize(e: ExchangeInput, firing: ReadonlyMap<string, number>): ExchangeSummary {
  const snap = e.snapshot;
  const networks = snap === undefined ? 0 : networkCount(snap.coins);
  return {
    name: e.name,
    up: e.up,
    polls: e.polls,
    coinsAt: snap?.coinsAt != null ? new Date(snap.coinsAt).toISOString() : null,
    tickersAt: snap?.tickersAt != null ? new Date(snap.tickersAt).toISOString() : null,
    coins: snap?.coins.size ?? 0,
    networks,
    tickers: snap?.tickers.size ?? 0,
    alertsFiring: firing.get(e.name) ?? 0,
  };
}

/** The networks of a snapshot with deposits or withdrawals closed, in the exchange's order. */
export function* closedNetworks(snapshot: Snapshot | undefined): Generator<{ coin: string; n: NetworkRecord }> {
  for (const c of snapshot?.coins.values() ?? []) {
    for (const n of c.networkList) if (!(n.depositEnable && n.withdrawEnable)) yield { coin: c.coin, n };
  }
}

/**
 * GET /api/v1/state: each exchange's health, and one page of its closed networks (the same
 * `offset`/`limit` for every exchange) with their total; `next` is the offset of the next
 * page while any exchange has more.
 */
export function stateView(exchanges: readonly ExchangeInput[], alerts: Iterable<Alert>, page: Page, extras: StateExtras = NO_EXTRAS): { data: StateView; next: number | null } {
  const firing = firingByExchange(alerts);
  let more = false;
  const data = {
    exchanges: exchanges.map((e) => {
      const disabled: DisabledNetwork[] = [];
      let total = 0;
      for (const { coin, n } of closedNetworks(e.snapshot)) {
        if (total >= page.offset && disabled.length < page.limit) {
          disabled.push({ coin, network: n.network, chain: extras.chainOf(e.name, n.network), depositEnable: n.depositEnable, withdrawEnable: n.withdrawEnable, depositDesc: n.depositDesc, withdrawDesc: n.withdrawDesc });
        }
        total++;
      }
      if (total > page.offset + page.limit) more = true;
      return { ...summarize(e, firing), disabled, disabledTotal: total };
    }),
    routes: extras.routes().map(routeView),
  };
  return { data, next: more ? page.offset + page.limit : null };
}
