import type { ReceiverPlugin } from '../plugin';
import { pagerdutyNotifier } from './pagerduty';
import { PAGERDUTY_DEFAULTS, pagerdutySchema, type PagerDutyConfig } from './schema';

/** `pagerduty`: an Events API v2 incident per alert, triggered and resolved with it; the routing key is a secret. */
export const pagerduty = {
  kind: 'pagerduty',
  schema: () => pagerdutySchema,
  defaults: PAGERDUTY_DEFAULTS,
  redact: { routing_key: 'secret', url: 'url', timeout: 'keep', events: 'keep', summary_template: 'keep' },
  create: (name, c, deps) =>
    pagerdutyNotifier({ name, url: c.url, timeoutMs: c.timeout, routingKey: c.routing_key, events: c.events, summaryTemplate: c.summary_template }, deps),
} satisfies ReceiverPlugin<PagerDutyConfig>;
