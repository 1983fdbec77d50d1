import type { Logger } from '../../lib/logger';
import type { Delivery, Notifier } from '../notifier';
import { alertWord } from '../kit/text';

/** The `log` receiver: one structured line per alert, `FIRING`, `RESOLVED` or `CHANGE` (an event, which neither fires nor resolves). */
export function logNotifier(name: string, logger: Logger): Notifier {
  return {
    name,
    async send({ notification }: Delivery) {
      for (const a of notification.alerts) {
        logger.info(
          { receiver: name, status: a.status, fingerprint: a.fingerprint, labels: a.labels, annotations: a.annotations, startsAt: a.startsAt, endsAt: a.endsAt },
          `${alertWord(a)} ${a.annotations.summary ?? a.labels.alertname ?? ''}`,
        );
      }
    },
  };
}
