/** The webhook version 4 body of one group for one receiver: the data model every receiver renders. */
import { createHash } from 'node:crypto';
import type { Alert } from '../../alerts/alert';
import { groupKeyOf } from '../../alerts/groups';
import { ZERO_TIME, type Delivery, type NotifiedAlert, type Notification } from '../notifier';

function iso(ms: number | null): string {
  return ms === null ? ZERO_TIME : new Date(ms).toISOString();
}

/** `iso`, remembering the last few times: a storm's 8,000 alerts share a handful of them. */
function isoCache(): (ms: number | null) => string {
  const seen = new Map<number, string>();
  return (ms) => {
    if (ms === null) return ZERO_TIME;
    let text = seen.get(ms);
    if (text === undefined) {
      if (seen.size >= 64) seen.clear();
      text = iso(ms);
      seen.set(ms, text);
    }
    return text;
  };
}

export function toNotified(a: Alert, externalURL: string, time: (ms: number | null) => string = iso): NotifiedAlert {
  return {
    status: a.status === 'resolved' ? 'resolved' : 'firing',
    labels: a.labels,
    annotations: a.annotations,
    startsAt: time(a.startsAt ?? a.activeAt),
    endsAt: a.status === 'resolved' ? time(a.endsAt) : ZERO_TIME,
    generatorURL: `${externalURL}/#${a.fingerprint}`,
    fingerprint: a.fingerprint,
  };
}

/** Label pairs shared by every map. */
function common(maps: Record<string, string>[]): Record<string, string> {
  const [first, ...rest] = maps;
  if (first === undefined) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(first)) if (rest.every((m) => m[k] === v)) out[k] = v;
  return out;
}

/**
 * The webhook body for one group: firing if any alert fires, as Alertmanager does. The
 * idempotency key is derived from the content and `createdAt`, so it stays the same across
 * retries and restarts of the same delivery.
 */
export function buildDelivery(
  receiver: string,
  groupLabels: Record<string, string>,
  alerts: readonly Alert[],
  externalURL: string,
  createdAt: number,
  groupKey = groupKeyOf('{}', groupLabels),
): Delivery {
  const time = isoCache();
  const notified = alerts.map((a) => toNotified(a, externalURL, time));
  const notification: Notification = {
    version: '4',
    groupKey,
    truncatedAlerts: 0,
    status: notified.some((a) => a.status === 'firing') ? 'firing' : 'resolved',
    receiver,
    groupLabels,
    commonLabels: common(notified.map((a) => a.labels)),
    commonAnnotations: common(notified.map((a) => a.annotations)),
    externalURL,
    alerts: notified,
  };
  const key = createHash('sha256')
    .update(`${receiver}\u0000${notification.groupKey}\u0000${createdAt}\u0000`)
    .update(notified.map((a) => `${a.fingerprint}:${a.status}`).join(','))
    .digest('hex')
    .slice(0, 32);
  return { notification, idempotencyKey: key };
}
