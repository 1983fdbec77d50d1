import { anySignal } from '../../lib/abort';
import { deadline, timeoutError } from '../../lib/deadline';
import { Agent, type Dispatcher } from 'undici';
import { statusError, transportError } from '../http-errors';
import { postFollowingRedirects, type PostAnswer } from '../http-post';
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
      // Timed from when the body is ready to go; a stall of our own event loop does not count
      // (an answer that arrived meanwhile is read first), so a busy process never reports a
      // receiver that answered at once as timed out, and never sends it the body twice.
      const timeout = new AbortController();
      const timer = deadline(options.timeoutMs, () => timeout.abort(timeoutError(options.timeoutMs)));
      const linked = anySignal(signal ? [signal, timeout.signal] : [timeout.signal]);
      let answer: PostAnswer;
      try {
        answer = await postFollowingRedirects(dispatcher, 'Alertmanager', {
          url: new URL(path, base),
          headers: { 'content-type': 'application/json', 'user-agent': 'spotwatch' },
          body: JSON.stringify(body),
          signal: linked.signal,
        });
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        if (err instanceof NotifyError) throw err;
        throw transportError('Alertmanager', err, options.timeoutMs);
      } finally {
        timer.cancel();
        linked.release();
      }
      const status = answer.status;
      if (status >= 200 && status < 300) return;
      throw statusError('Alertmanager', status, answer.headers['retry-after']);
    },
    async close() {
      if (options.dispatcher === undefined) await dispatcher.close();
    },
  };
}
