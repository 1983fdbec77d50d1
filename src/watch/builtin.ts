import type { Instance } from '../rules/evaluate';
import type { Rule } from '../rules/model';
import type { Endpoint } from '../exchange/wire';

/** The alerts spotwatch raises about an exchange itself, one rule per endpoint. */
export type BuiltinName = 'UpstreamAnomaly' | 'ExchangeDown';

const SEVERITY: Record<BuiltinName, string> = { UpstreamAnomaly: 'warning', ExchangeDown: 'critical' };

export function builtinRule(name: BuiltinName, endpoint: Endpoint): Rule {
  return {
    id: `builtin:${name}:${endpoint}`,
    alert: name,
    match: [],
    severity: SEVERITY[name],
    forMs: 0,
    keepFiringForMs: 0,
    repeatIntervalMs: undefined,
    labels: {},
    annotations: {},
    condition: { type: 'builtin' },
  };
}

export function builtinInstance(rule: Rule, exchange: string, endpoint: Endpoint, fields: Record<string, string | number>): Instance {
  return {
    rule,
    entity: `${exchange}\u0000${endpoint}`,
    labels: { alertname: rule.alert, exchange, severity: rule.severity, endpoint },
    fields: { exchange, endpoint, kind: rule.alert === 'UpstreamAnomaly' ? 'upstream_anomaly' : 'exchange_down', ...fields },
    value: 1,
  };
}
