import { render, type TemplateFields } from '../../lib/template';
import { isChangeEvent } from './event-alert';
import type { Notification, NotifiedAlert } from '../notifier';

/**
 * The one data model every receiver's templates see: the fields of the version 4 body,
 * flattened (`status`, `receiver`, `groupKey`, `externalURL`, `count`, `firing`, `resolved`,
 * `groupLabels.X`, `commonLabels.X`, `commonAnnotations.X`).
 */
export function notificationFields(n: Notification): TemplateFields {
  const fields: Record<string, string | number> = {
    status: n.status,
    receiver: n.receiver,
    groupKey: n.groupKey,
    externalURL: n.externalURL,
    count: n.alerts.length,
    firing: n.alerts.filter((a) => a.status === 'firing').length,
    resolved: n.alerts.filter((a) => a.status === 'resolved').length,
  };
  for (const [prefix, map] of [['groupLabels', n.groupLabels], ['commonLabels', n.commonLabels], ['commonAnnotations', n.commonAnnotations]] as const) {
    for (const [k, v] of Object.entries(map)) fields[`${prefix}.${k}`] = v;
  }
  return fields;
}

/** Upstream text on one line: control characters (CR, LF...) become spaces. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

/**
 * What an alert is, in the word a line starts with: `FIRING` while a condition holds, `RESOLVED`
 * once it stopped, `CHANGE` for a change event (a message cleared, a fee changed: it happened,
 * nothing is firing; the version 4 body still says `firing`, as Alertmanager's consumers expect).
 */
export function alertWord(a: NotifiedAlert): 'FIRING' | 'RESOLVED' | 'CHANGE' {
  if (a.status === 'resolved') return 'RESOLVED';
  return isChangeEvent(a) ? 'CHANGE' : 'FIRING';
}

/** One line of text per alert: status, summary, where, since when, and the current message. */
export function alertLine(a: NotifiedAlert): string {
  return oneLine(rawAlertLine(a));
}

function rawAlertLine(a: NotifiedAlert): string {
  const where = [a.labels.exchange, a.labels.coin, a.labels.network, a.labels.symbol].filter(Boolean).join(' / ');
  const since = a.status === 'resolved' ? `resolved ${a.endsAt}` : isChangeEvent(a) ? `at ${a.startsAt}` : `since ${a.startsAt}`;
  const msg = a.annotations.withdraw_desc ?? a.annotations.deposit_desc;
  return `${alertWord(a)}  ${a.annotations.summary ?? a.labels.alertname ?? ''}  [${where}] ${since}${msg ? `  message: ${msg}` : ''}`;
}

/** A header value from a template: no CR, LF or other control characters, cut to a sane length. */
export function headerText(template: string, fields: TemplateFields): string {
  return oneLine(render(template, fields)).replace(/\s+/g, ' ').trim().slice(0, 250);
}

export { escapeHtml } from '../../lib/html';
