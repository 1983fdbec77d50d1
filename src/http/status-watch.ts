import { matchesAll } from '../rules/match';
import type { Rule } from '../rules/model';
import type { NetworkRecord } from '../snapshot/model';

/** The labels a rule's `match` can single a network out by. */
const NETWORK_LABELS = new Set(['coin', 'network', 'chain']);

/**
 * Which networks and symbols the rules watch, for the status page's "watched first": a network
 * matched by a rule on networks or coins (state, change, transfer) that names its coin, network
 * or chain; a symbol matched by a ticker rule that names its symbol. A rule over every network
 * singles none out, so it makes none "watched". Answers are kept per rules list (a reload makes
 * a new one), so a render costs a lookup per network, not a pattern test per rule (networks by their record, which a
 * snapshot keeps while it does not change).
 */
export class Watched {
  private rules: readonly Rule[] | undefined;
  private networkRules: readonly Rule[] = [];
  private symbolRules: readonly Rule[] = [];
  private known = new Map<string, boolean>();
  private networks = new WeakMap<NetworkRecord, boolean>();

  private use(rules: readonly Rule[]): void {
    if (rules === this.rules) return;
    this.rules = rules;
    this.known = new Map();
    this.networks = new WeakMap();
    this.networkRules = rules.filter((r) => r.condition.type !== 'ticker' && r.condition.type !== 'builtin' && (r.condition.type === 'transfer' || r.match.some((m) => NETWORK_LABELS.has(m.label))));
    this.symbolRules = rules.filter((r) => r.condition.type === 'ticker' && r.match.some((m) => m.label === 'symbol'));
  }

  /** Whether a network of an exchange is watched; `n` is its record in that exchange's snapshot. */
  network(rules: readonly Rule[], exchange: string, coin: string, n: NetworkRecord, chain: string | null): boolean {
    this.use(rules);
    if (this.networkRules.length === 0) return false;
    let hit = this.networks.get(n);
    if (hit === undefined) {
      const { network } = n;
      const labels = { exchange, coin, network, chain: chain ?? undefined };
      hit = this.networkRules.some((r) =>
        r.condition.type === 'transfer' ? r.condition.coin === coin && (r.condition.from === exchange || r.condition.to === exchange) : matchesAll(r.match, labels),
      );
      this.networks.set(n, hit);
    }
    return hit;
  }

  symbol(rules: readonly Rule[], exchange: string, symbol: string): boolean {
    this.use(rules);
    if (this.symbolRules.length === 0) return false;
    const key = `s\u0000${exchange}\u0000${symbol}`;
    let hit = this.known.get(key);
    if (hit === undefined) {
      hit = this.symbolRules.some((r) => matchesAll(r.match, { exchange, symbol }));
      this.known.set(key, hit);
    }
    return hit;
  }
}
