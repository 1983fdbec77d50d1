import type { Logger } from '../../lib/logger';
import type { Delivery, Notifier } from '../notifier';

/** The `log` receiver: one structured line per alert. */
export function logNotifier(name: string, logger: Logger): Notifier {
  return {
    name,
    async send({ notification }: Delivery) {
      for (const a of notification.alerts) {
        logger.info(
          { receiver: name, status: a.status, fingerprint: a.fingerprint, labels: a.labels, annotations: a.annotations, startsAt: a.startsAt, endsAt: a.endsAt },
          `${a.status === 'firing' ? 'FIRING' : 'RESOLVED'} ${a.annotations.summary ?? a.labels.alertname ?? ''}`,
        );
      }
    },
  };
}
