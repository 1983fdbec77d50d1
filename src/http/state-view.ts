import type { Alert } from '../alerts/alert';
import type { NetworkRecord, Snapshot } from '../snapshot/model';

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
  depositEnable: boolean;
  withdrawEnable: boolean;
  depositDesc: string | null;
  withdrawDesc: string | null;
}

export interface StateView {
  exchanges: (ExchangeSummary & { disabled: DisabledNetwork[]; disabledTotal: number })[];
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
  let networks = 0;
  for (const c of snap?.coins.values() ?? []) networks += c.networkList.length;
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
export function stateView(exchanges: readonly ExchangeInput[], alerts: Iterable<Alert>, page: Page): { data: StateView; next: number | null } {
  const firing = firingByExchange(alerts);
  let more = false;
  const data = {
    exchanges: exchanges.map((e) => {
      const disabled: DisabledNetwork[] = [];
      let total = 0;
      for (const { coin, n } of closedNetworks(e.snapshot)) {
        if (total >= page.offset && disabled.length < page.limit) {
          disabled.push({ coin, network: n.network, depositEnable: n.depositEnable, withdrawEnable: n.withdrawEnable, depositDesc: n.depositDesc, withdrawDesc: n.withdrawDesc });
        }
        total++;
      }
      if (total > page.offset + page.limit) more = true;
      return { ...summarize(e, firing), disabled, disabledTotal: total };
    }),
  };
  return { data, next: more ? page.offset + page.limit : null };
}
