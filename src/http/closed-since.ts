import type { Change } from '../snapshot/changes';
import type { NetworkRecord } from '../snapshot/model';
import type { Outage } from '../outages/model';

/** When a network last closed: [deposits, withdrawals], ms or null (before the kept history). */
export type Closures = readonly [deposit: number | null, withdraw: number | null];

type Directions = Pick<NetworkRecord, 'depositEnable' | 'withdrawEnable' | 'depositDesc' | 'withdrawDesc'>;

/** When a network closed: the later closure of its closed direction(s); null when the kept history does not say. */
export function closedAt(n: Directions, at: Closures | undefined): number | null {
  const d = n.depositEnable ? null : (at?.[0] ?? null);
  const w = n.withdrawEnable ? null : (at?.[1] ?? null);
  return d === null ? w : w === null ? d : Math.max(d, w);
}

/** The exchange's words for a network's closed direction(s), withdrawals' first; null when it gave none. */
export function closedMessage(n: Directions): string | null {
  return [n.withdrawEnable ? null : n.withdrawDesc, n.depositEnable ? null : n.depositDesc].filter((m) => m).join(' / ') || null;
}

/** The exchange's words over an outage (each message it gave while closed), or null when it gave none. */
export function outageMessage(o: Pick<Outage, 'messages'>): string | null {
  return o.messages.length === 0 ? null : o.messages.join(' / ');
}

const key = (coin: string, network: string): string => `${coin}\u0000${network}`;

/**
 * When each network last closed, per exchange and direction: read from the history once
 * (`load`, one indexed query) the first time an exchange is asked about, then kept up to date
 * from the changes as they are accepted, so a render does no query per network.
 */
export class ClosedSince {
  private readonly byExchange = new Map<string, Map<string, [number | null, number | null]>>();

  /** `load(exchange)`: every closure of that exchange's history (Store.closedSince). */
  constructor(private readonly load: (exchange: string) => Iterable<{ coin: string; network: string; kind: string; at: number }>) {}

  get(exchange: string, coin: string, network: string): Closures | undefined {
    let known = this.byExchange.get(exchange);
    if (known === undefined) {
      known = new Map();
      this.byExchange.set(exchange, known);
      for (const c of this.load(exchange)) this.note(known, c.coin, c.network, c.kind, c.at);
    }
    return known.get(key(coin, network));
  }

  /**
   * Accepted changes (already in the history). An exchange not loaded yet is left alone: its
   * first load reads them from the history.
   */
  observe(exchange: string, changes: readonly Change[]): void {
    const known = this.byExchange.get(exchange);
    if (known === undefined) return;
    for (const c of changes) this.note(known, c.coin ?? '', c.network ?? '', c.kind, c.at);
  }

  /** An exchange no longer watched: read again on the next question. */
  forget(exchange: string): void {
    this.byExchange.delete(exchange);
  }

  private note(known: Map<string, [number | null, number | null]>, coin: string, network: string, kind: string, at: number): void {
    if (kind !== 'deposit_disabled' && kind !== 'withdraw_disabled') return;
    const i = kind === 'deposit_disabled' ? 0 : 1;
    const k = key(coin, network);
    let entry = known.get(k);
    if (entry === undefined) known.set(k, (entry = [null, null]));
    if (at >= (entry[i] ?? -Infinity)) entry[i] = at;
  }
}
