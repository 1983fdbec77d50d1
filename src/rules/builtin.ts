import type { Instance } from './evaluate';
import type { Rule } from './model';
import type { Flap } from './flapping';
import type { Endpoint } from '../snapshot/model';

/** The alerts spotwatch raises about an exchange itself, one rule per endpoint. */
type BuiltinName = 'UpstreamAnomaly' | 'ExchangeDown';

/** A rule of spotwatch's own: it fires and resolves as step judges it, with nothing to wait for. */
function builtinRule(id: string, alert: string, severity: string, annotations: Record<string, string> = {}): Rule {
  return {
    id,
    alert,
    match: [],
    severity,
    forMs: 0,
    keepFiringForMs: 0,
    repeatIntervalMs: undefined,
    labels: {},
    annotations,
    condition: { type: 'builtin' },
  };
}

function endpointRules(endpoint: Endpoint): Readonly<Record<BuiltinName, Rule>> {
  return {
    UpstreamAnomaly: builtinRule(`builtin:UpstreamAnomaly:${endpoint}`, 'UpstreamAnomaly', 'warning'),
    ExchangeDown: builtinRule(`builtin:ExchangeDown:${endpoint}`, 'ExchangeDown', 'critical'),
  };
}

/** The built-in rules of one endpoint, made once: their ids are what their alerts are kept under. */
export const ENDPOINT_RULES: Readonly<Record<Endpoint, Readonly<Record<BuiltinName, Rule>>>> = {
  coins: endpointRules('coins'),
  tickers: endpointRules('tickers'),
};

/** The entity of an endpoint's built-in alerts. */
export function builtinEntity(exchange: string, endpoint: Endpoint): string {
  return `${exchange}\u0000${endpoint}`;
}

export function builtinInstance(rule: Rule, exchange: string, endpoint: Endpoint, fields: Record<string, string | number>): Instance {
  return {
    rule,
    entity: builtinEntity(exchange, endpoint),
    labels: { alertname: rule.alert, exchange, severity: rule.severity, endpoint },
    fields: { exchange, endpoint, kind: rule.alert === 'UpstreamAnomaly' ? 'upstream_anomaly' : 'exchange_down', ...fields },
    value: 1,
  };
}

/**
 * The state store cannot be written (a full disk, a read-only file): fires at the first write
 * of an exchange's state that fails, resolves at the first that succeeds. Its notification is
 * held in memory like every other while the store fails (see notify/held-outbox.ts).
 */
export const STORE_FAILING_RULE = builtinRule('builtin:StoreFailing', 'StoreFailing', 'critical', {
  summary: 'spotwatch cannot write its state store ({{exchange}})',
  description: 'Writes fail: {{error}}. Notifications are held in memory and change history is queued until the store takes writes again.',
});

export function storeFailingInstance(exchange: string, error: string): Instance {
  return {
    rule: STORE_FAILING_RULE,
    entity: `${exchange}\u0000store`,
    labels: { alertname: STORE_FAILING_RULE.alert, exchange, severity: STORE_FAILING_RULE.severity },
    fields: { exchange, kind: 'store_failing', error },
    value: 1,
  };
}

/**
 * A network or a symbol flapping (rules/flapping.ts): one alert while it flaps, its own flip
 * alerts held meanwhile; it resolves when the thing settles.
 */
function flappingRule(endpoint: Endpoint): Rule {
  const subject = endpoint === 'coins' ? '{{coin}} on {{network}}' : '{{symbol}}';
  return builtinRule(`builtin:Flapping:${endpoint}`, 'Flapping', 'warning', {
    summary: `${subject} is flapping ({{exchange}}): {{changes}} changes in the last {{window}} polls`,
    description: `The exchange answers ${subject} one way and the other in turn ({{percent}} % state change over the last {{window}} polls). Its alerts are held while it flaps; this alert resolves when it settles.`,
  });
}

export const FLAPPING_RULES: Readonly<Record<Endpoint, Rule>> = { coins: flappingRule('coins'), tickers: flappingRule('tickers') };

export function flappingInstance(exchange: string, endpoint: Endpoint, flap: Flap, percent: number, window: number): Instance {
  const rule = FLAPPING_RULES[endpoint];
  const where = Object.values(flap.where);
  return {
    rule,
    entity: [exchange, ...where].join('\u0000'),
    labels: { alertname: rule.alert, exchange, severity: rule.severity, ...flap.where },
    fields: { exchange, ...flap.where, kind: 'flapping', changes: flap.changedAt.length, window, percent: Math.round(percent) },
    value: Math.round(percent),
  };
}
