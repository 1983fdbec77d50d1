import { arrayRunsWithin, utf8Bytes } from '../kit/parts';
import { postNotification, type HttpDeps } from '../kit/http-post';
import { ZERO_TIME, type Delivery, type Notifier } from '../notifier';

export interface AlertmanagerOptions {
  name: string;
  /** Alertmanager's base URL, e.g. http://127.0.0.1:9093. */
  url: string;
  timeoutMs: number;
  /** Most bytes in one post; 0 = no bound. */
  maxBodyBytes: number;
}

/**
 * The `alertmanager` receiver: pushes alerts to Alertmanager's `POST /api/v2/alerts`. Firing
 * alerts are pushed again every resend interval (Alertmanager resolves an alert it stops
 * hearing about), resolved ones with their endsAt. Alertmanager identifies alerts by their
 * labels, so several spotwatch replicas behind one Alertmanager produce one notification.
 *
 * A storm's thousands of alerts go in several posts, each at most `maxBodyBytes`, in order, none
 * left out (as Prometheus posts its alerts in batches). A post that fails fails the send: the retry
 * posts them all again, which Alertmanager takes as the same alerts heard again, not new ones.
 */
export function alertmanagerNotifier(options: AlertmanagerOptions, http: HttpDeps): Notifier {
  const base = new URL(options.url);
  const path = `${base.pathname.replace(/\/+$/, '')}/api/v2/alerts`;
  return {
    name: options.name,
    async send({ notification }: Delivery, signal?: AbortSignal) {
      const items = notification.alerts.map((a) =>
        JSON.stringify({
          labels: a.labels,
          annotations: a.annotations,
          startsAt: a.startsAt,
          ...(a.endsAt !== ZERO_TIME && { endsAt: a.endsAt }),
          generatorURL: a.generatorURL,
        }),
      );
      let from = 0;
      for (const count of arrayRunsWithin(items.map(utf8Bytes), options.maxBodyBytes)) {
        await postNotification(http, 'Alertmanager', {
          url: new URL(path, base),
          headers: { 'content-type': 'application/json', 'user-agent': 'spotwatch' },
          body: `[${items.slice(from, from + count).join(',')}]`,
        }, options.timeoutMs, signal);
        from += count;
      }
    },
  };
}
