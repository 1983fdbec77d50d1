import { postNotification, type HttpDeps } from '../http-post';
import { ZERO_TIME, type Delivery, type Notifier } from '../notifier';

export interface AlertmanagerOptions {
  name: string;
  /** Alertmanager's base URL, e.g. http://127.0.0.1:9093. */
  url: string;
  timeoutMs: number;
}

/**
 * The `alertmanager` receiver: pushes alerts to Alertmanager's `POST /api/v2/alerts`. Firing
 * alerts are pushed again every resend interval (Alertmanager resolves an alert it stops
 * hearing about), resolved ones with their endsAt. Alertmanager identifies alerts by their
 * labels, so several spotwatch replicas behind one Alertmanager produce one notification.
 */
export function alertmanagerNotifier(options: AlertmanagerOptions, http: HttpDeps): Notifier {
  const base = new URL(options.url);
  const path = `${base.pathname.replace(/\/+$/, '')}/api/v2/alerts`;
  return {
    name: options.name,
    async send({ notification }: Delivery, signal?: AbortSignal) {
      const body = notification.alerts.map((a) => ({
        labels: a.labels,
        annotations: a.annotations,
        startsAt: a.startsAt,
        ...(a.endsAt !== ZERO_TIME && { endsAt: a.endsAt }),
        generatorURL: a.generatorURL,
      }));
      await postNotification(http, 'Alertmanager', {
        url: new URL(path, base),
        headers: { 'content-type': 'application/json', 'user-agent': 'spotwatch' },
        body: JSON.stringify(body),
      }, options.timeoutMs, signal);
    },
  };
}
