import { compileMatcher, matchesAll } from '../rules/match';
import type { Matcher } from '../rules/model';
import type { Alert } from './alert';

/** Alertmanager's inhibit rule: a firing source mutes targets that share the `equal` labels. */
export interface InhibitRuleInput {
  source_match: Record<string, string>;
  target_match: Record<string, string>;
  equal: string[];
}

interface InhibitRule {
  source: Matcher[];
  target: Matcher[];
  equal: string[];
}

/**
 * Built in: an unreachable exchange mutes its per-network and per-ticker alerts, and a
 * delisted coin mutes the alerts of its networks (which vanish with it).
 */
export const DEFAULT_INHIBIT_RULES: readonly InhibitRuleInput[] = [
  { source_match: { alertname: 'ExchangeDown', endpoint: 'coins' }, target_match: { network: '/.+/' }, equal: ['exchange'] },
  { source_match: { alertname: 'ExchangeDown', endpoint: 'tickers' }, target_match: { symbol: '/.+/' }, equal: ['exchange'] },
  { source_match: { kind: 'coin_delisted' }, target_match: { network: '/.+/' }, equal: ['exchange', 'coin'] },
];

export function compileInhibitRules(rules: readonly InhibitRuleInput[]): InhibitRule[] {
  const m = (r: Record<string, string>): Matcher[] => Object.entries(r).map(([k, v]) => compileMatcher(k, v));
  return rules.map((r) => ({ source: m(r.source_match), target: m(r.target_match), equal: r.equal }));
}

/** The values of the `equal` labels, as one key (a missing label differs from an empty one). */
function equalKey(labels: Readonly<Record<string, string>>, equal: readonly string[]): string {
  return JSON.stringify(equal.map((k) => labels[k] ?? null));
}

/** Several sources share the key: whichever alert asks, one of them is another alert. */
const MANY = '';

/**
 * The firing sources of every rule, indexed by their `equal` label values: built once per
 * flush in one pass over the sources, then each alert is judged with one lookup per rule
 * whose target it matches (instead of every alert against every source).
 */
export class InhibitionIndex {
  /** Per rule: equal key -> the one source's fingerprint, or MANY. */
  private readonly bySource: Map<string, string>[];

  constructor(
    sources: Iterable<Alert>,
    private readonly rules: readonly InhibitRule[],
  ) {
    this.bySource = rules.map(() => new Map());
    for (const s of sources) {
      if (s.status !== 'firing') continue;
      rules.forEach((r, i) => {
        if (!matchesAll(r.source, s.labels)) return;
        const index = this.bySource[i] as Map<string, string>;
        const key = equalKey(s.labels, r.equal);
        const seen = index.get(key);
        index.set(key, seen === undefined || seen === s.fingerprint ? s.fingerprint : MANY);
      });
    }
  }

  private signed: string | undefined;

  /**
   * The indexed sources, as one string: equal when the same alerts would be inhibited. Built
   * once (the index does not change): the pipeline asks for it per group and receiver.
   */
  signature(): string {
    return (this.signed ??= JSON.stringify(this.bySource.map((index) => [...index].sort())));
  }

  /** Whether `alert` is muted by a firing source other than itself. */
  inhibits(alert: Alert): boolean {
    return this.rules.some((r, i) => {
      const index = this.bySource[i] as Map<string, string>;
      if (index.size === 0 || !matchesAll(r.target, alert.labels)) return false;
      const source = index.get(equalKey(alert.labels, r.equal));
      return source !== undefined && source !== alert.fingerprint;
    });
  }
}

