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

/** Whether `alert` is muted by one of `sources` (firing alerts and recent events) under the rules. */
export function inhibited(alert: Alert, sources: Iterable<Alert>, rules: readonly InhibitRule[]): boolean {
  const candidates = rules.filter((r) => matchesAll(r.target, alert.labels));
  if (candidates.length === 0) return false;
  for (const s of sources) {
    if (s.fingerprint === alert.fingerprint || s.status !== 'firing') continue;
    for (const r of candidates) {
      if (matchesAll(r.source, s.labels) && r.equal.every((k) => s.labels[k] === alert.labels[k])) return true;
    }
  }
  return false;
}
