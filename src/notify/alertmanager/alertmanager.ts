import { Agent, type Dispatcher } from 'undici';
import { NotifyError, ZERO_TIME, type Delivery, type Notifier } from '../notifier';

export interface AlertmanagerOptions {
  name: string;
  /** Alertmanager's base URL, e.g. http://127.0.0.1:9093. */
  url: string;
  timeoutMs: number;
  dispatcher?: Dispatcher | undefined;
}

/**
 * The `alertmanager` receiver: pushes alerts to Alertmanager's `POST /api/v2/alerts`. Firing
 * alerts are pushed again every resend interval (Alertmanager resolves an alert it stops
 * hearing about), resolved ones with their endsAt. Alertmanager identifies alerts by their
 * labels, so several spotwatch replicas behind one Alertmanager produce one notification.
 */
export function alertmanagerNotifier(options: AlertmanagerOptions): Notifier {
  const dispatcher = options.dispatcher ?? new Agent({ connections: 2, keepAliveTimeout: 10_000 });
  const base = new URL(options.url);
  const path = `${base.pathname.replace(/\/+$/, '')}/api/v2/alerts`;
  return {
    name: options.name,
    kind: 'alertmanager',
    async send({ notification }: Delivery, signal?: AbortSignal) {
      const body = notification.alerts.map((a) => ({
        labels: a.labels,
        annotations: a.annotations,
        startsAt: a.startsAt,
        ...(a.endsAt !== ZERO_TIME && { endsAt: a.endsAt }),
        generatorURL: a.generatorURL,
      }));
      const timeout = AbortSignal.timeout(options.timeoutMs);
      let status: number;
      try {
        const res = await dispatcher.request({
          origin: base.origin,
          path,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'spotwatch' },
          body: JSON.stringify(body),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        status = res.statusCode;
        await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        const name = typeof err === 'object' && err !== null ? String((err as { name?: unknown }).name) : '';
        if (name === 'TimeoutError' || name === 'AbortError') throw new NotifyError(`Alertmanager did not answer within ${options.timeoutMs} ms`, 'timeout', true);
        throw new NotifyError(`Alertmanager unreachable (${String((err as { code?: unknown })?.code ?? (err as { cause?: { code?: unknown } })?.cause?.code ?? 'error')})`, 'connect', true);
      }
      if (status >= 200 && status < 300) return;
      if (status === 429) throw new NotifyError('Alertmanager answered HTTP 429', 'rate_limited', true);
      if (status >= 500) throw new NotifyError(`Alertmanager answered HTTP ${status}`, 'server_error', true);
      throw new NotifyError(`Alertmanager answered HTTP ${status}`, 'client_error', false);
    },
    async close() {
      if (options.dispatcher === undefined) await dispatcher.close();
    },
  };
}
