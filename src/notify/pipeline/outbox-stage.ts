import { buildDelivery } from './build-delivery';
import type { Stage } from './stage';

/**
 * The last stage before the outbox: the notification of the alerts still to tell (the webhook
 * version 4 body, build-delivery.ts), with the log entry the dedup stage decided, as one item to
 * commit. No alerts left: only the log entry changes.
 */
export function outboxStage(externalURL: () => string): Stage {
  return {
    name: 'outbox',
    exec(ctx, alerts) {
      const { group, now, receiver } = ctx;
      const delivery = alerts.length > 0 ? buildDelivery(receiver, group.labels, alerts, externalURL(), now, group.key) : undefined;
      ctx.item = { receiver, groupKey: group.key, delivery, entry: ctx.entry };
      return alerts;
    },
  };
}
