import { createHash } from 'node:crypto';
import { compileMatcher } from './match';
import type { Condition, Rule } from './model';
import type { RuleDefinition } from './schema';

/** A validated rule definition, ready to evaluate. */
export function compileRule(def: RuleDefinition): Rule {
  return {
    id: ruleId(def),
    alert: def.alert,
    match: Object.entries(def.match ?? {}).map(([label, pattern]) => compileMatcher(label, pattern)),
    severity: def.severity,
    forMs: def.for ?? 0,
    keepFiringForMs: def.keep_firing_for ?? 0,
    repeatIntervalMs: def.repeat_interval,
    labels: def.labels ?? {},
    annotations: def.annotations ?? {},
    condition: condition(def),
  };
}

function condition(def: RuleDefinition): Condition {
  if (def.state !== undefined) return { type: 'state', state: def.state, ...(def.unannounced === true && { unannounced: true }) };
  if (def.maintenance !== undefined) return { type: 'maintenance', state: def.maintenance, withinMs: def.within };
  if (def.exchange_status !== undefined) return { type: 'exchange_status', states: Array.isArray(def.exchange_status) ? def.exchange_status : [def.exchange_status] };
  if (def.announcement !== undefined) return { type: 'announcement', kinds: Array.isArray(def.announcement) ? def.announcement : [def.announcement] };
  if (def.change !== undefined) return { type: 'change', kinds: Array.isArray(def.change) ? def.change : [def.change] };
  if (def.transfer !== undefined) return { type: 'transfer', coin: def.transfer.coin, from: def.transfer.from, to: def.transfer.to, chains: def.transfer.chains };
  return {
    type: 'ticker',
    measure: def.ticker ?? 'missing',
    windowMs: def.window,
    above: def.above,
    below: def.below,
    hysteresis: def.hysteresis ?? 0,
  };
}

/**
 * Identity of a rule's definition: its alert name, match and condition. Alerts stay attached
 * to their rule across restarts, reloads and reordering; editing a rule's annotations or
 * timers keeps them too.
 */
function ruleId(def: RuleDefinition): string {
  const key = JSON.stringify([def.alert, def.match ?? {}, def.state, def.change, def.ticker, def.window, def.above, def.below, def.labels ?? {}, ...(def.transfer !== undefined ? [def.transfer] : []), ...notices(def)]);
  return `${def.alert}:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

/** The notice conditions in a rule's identity, only where they are set (older rules keep their ids). */
function notices(def: RuleDefinition): unknown[] {
  const parts = { maintenance: def.maintenance, within: def.within, exchange_status: def.exchange_status, announcement: def.announcement, unannounced: def.unannounced };
  return Object.values(parts).some((v) => v !== undefined) ? [parts] : [];
}
