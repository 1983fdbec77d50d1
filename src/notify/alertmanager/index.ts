import type { ReceiverPlugin } from '../plugin';
import { alertmanagerNotifier } from './alertmanager';
import { ALERTMANAGER_DEFAULTS, alertmanagerSchema, type AlertmanagerConfig } from './schema';

/**
 * `alertmanager`: pushes alerts to Alertmanager's API. Alertmanager keeps each alert's state and
 * resolves one it stops hearing about, so routing tells it of each alert on its own, at once, and
 * again every resend_interval.
 */
export const alertmanager = {
  kind: 'alertmanager',
  schema: () => alertmanagerSchema,
  defaults: ALERTMANAGER_DEFAULTS,
  redact: { url: 'url', timeout: 'keep', resend_interval: 'keep', max_body_bytes: 'keep' },
  create: (name, c, deps) => alertmanagerNotifier({ name, url: c.url, timeoutMs: c.timeout, maxBodyBytes: c.max_body_bytes }, deps),
  resendInterval: (c) => c.resend_interval,
} satisfies ReceiverPlugin<AlertmanagerConfig>;
