/**
 * A group's notification as Events API v2 events: one incident per alert, whose `dedup_key` is
 * the alert's fingerprint (the same across restarts and replicas), `trigger` while it fires and
 * `resolve` when it resolves; a change alert (an event) is triggered and, unless configured
 * otherwise, resolved at once.
 */
import { alertFields, alertSummary, fit, groupFields, renderEscaped, upstreamMessage } from '../kit/chat-text';
import { isChangeEvent } from '../kit/event-alert';
import type { Notification, NotifiedAlert } from '../notifier';
import { severityLevel, SEVERITY_SCALES, type PagerDutySeverity } from '../kit/severity';
import { oneLine } from '../kit/text';
import type { PagerDutyEventMode } from './schema';

/** PagerDuty's documented limits, in characters. */
export const PAGERDUTY_LIMITS = { summary: 1024, dedupKey: 255 } as const;

/**
 * The longest string in `custom_details`: PagerDuty refuses an event over 512 KB, and a hostile
 * exchange message can be any length; the whole of it is on the status page.
 */
export const DETAIL_LIMIT = 4096;

/** A rule's severity as PagerDuty's (severity.ts's pagerduty row: its own four, the nearest of them for others, else a warning). */
export function pagerdutySeverity(severity: string | undefined): PagerDutySeverity {
  return severityLevel(SEVERITY_SCALES.pagerduty, severity);
}

export interface PagerDutyEvent {
  routing_key: string;
  event_action: 'trigger' | 'resolve';
  dedup_key: string;
  payload?: {
    summary: string;
    source: string;
    severity: PagerDutySeverity;
    timestamp: string;
    component?: string;
    class?: string;
    custom_details: Record<string, unknown>;
  };
  client?: string;
  client_url?: string;
  links?: { href: string; text: string }[];
}

export interface EventOptions {
  routingKey: string;
  events: PagerDutyEventMode;
  summaryTemplate?: string | undefined;
}

export function pagerdutyEvents(n: Notification, o: EventOptions): PagerDutyEvent[] {
  const group = o.summaryTemplate !== undefined ? groupFields(n) : {};
  return n.alerts.flatMap((a) => {
    const resolve: PagerDutyEvent = { routing_key: o.routingKey, event_action: 'resolve', dedup_key: a.fingerprint };
    if (a.status === 'resolved') return [resolve];
    const summary = o.summaryTemplate !== undefined ? renderEscaped(o.summaryTemplate, alertFields(group, a), oneLine) : defaultSummary(a);
    const trigger = triggerOf(n, a, summary, o.routingKey);
    return o.events === 'trigger_and_resolve' && isChangeEvent(a) ? [trigger, resolve] : [trigger];
  });
}

/** `USDT withdrawals disabled on Tron(TRC20) (main): Wallet maintenance`. */
function defaultSummary(a: NotifiedAlert): string {
  const message = upstreamMessage(a);
  return `${alertSummary(a)}${message !== undefined ? `: ${message}` : ''}`;
}

function triggerOf(n: Notification, a: NotifiedAlert, summary: string, routingKey: string): PagerDutyEvent {
  const { exchange, coin, network, symbol, alertname, kind } = a.labels;
  const component = symbol ?? [coin, network].filter(Boolean).join(' ');
  const message = upstreamMessage(a);
  const details: Record<string, unknown> = {
    labels: Object.fromEntries(Object.entries(a.labels).map(([k, v]) => [k, fit(v, DETAIL_LIMIT)])),
    ...(message !== undefined && { message: fit(message, DETAIL_LIMIT) }),
    ...(a.annotations.description && { description: fit(oneLine(a.annotations.description), DETAIL_LIMIT) }),
    firing_since: a.startsAt,
  };
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: a.fingerprint,
    payload: {
      summary: fit(oneLine(summary).trim() || alertname || 'spotwatch alert', PAGERDUTY_LIMITS.summary),
      source: fit(exchange || 'spotwatch', 255),
      severity: pagerdutySeverity(a.labels.severity),
      timestamp: a.startsAt,
      ...(component !== '' && { component: fit(component, 255) }),
      ...((kind ?? alertname) !== undefined && { class: fit(kind ?? alertname ?? '', 255) }),
      custom_details: details,
    },
    client: 'spotwatch',
    ...(/^https?:\/\//.test(n.externalURL) && { client_url: n.externalURL }),
    ...(/^https?:\/\//.test(a.generatorURL) && { links: [{ href: a.generatorURL, text: 'This alert on the spotwatch status page' }] }),
  };
}
