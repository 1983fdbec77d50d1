import type { TemplateFields } from '../lib/template';
import type { Rule } from './model';

/** A rule's condition holding for one thing (a network, a coin, a symbol) right now. */
export interface Instance {
  rule: Rule;
  /** The thing within the rule, stable across polls: exchange, then coin, network or symbol. */
  entity: string;
  /** Labels that identify it (alertname, exchange, severity, coin/network/symbol/kind, rule labels). */
  labels: Record<string, string>;
  /** Everything a template may use. */
  fields: TemplateFields;
  value: number | null;
}

/** An instance's labels: the rule's own, then alertname, exchange and severity, then where it holds (undefined left out). */
export function baseLabels(rule: Rule, exchange: string, where: Record<string, string | undefined>): Record<string, string> {
  const labels: Record<string, string> = { ...rule.labels, alertname: rule.alert, exchange, severity: rule.severity };
  for (const [k, v] of Object.entries(where)) if (v !== undefined) labels[k] = v;
  return labels;
}
