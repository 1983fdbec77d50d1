import { z } from 'zod';
import { httpUrl } from '../../src/lib/schema-types';
import { postNotification } from '../../src/notify/kit/http-post';
import type { ReceiverPlugin } from '../../src/notify/plugin';
import { DEFAULT_RECEIVER_TIMEOUT_MS, receiverTimeout } from '../../src/notify/kit/receiver-schema';
import { receiverRegistry } from '../../src/notify/registry';

/**
 * A receiver kind that exists only in tests, registered the way a real one is (one object that
 * satisfies ReceiverPlugin): `probe: { url, token, tag }` POSTs `{"receiver", "tag", "alerts":
 * ["<fingerprint>:<status>"]}` with `Authorization: Bearer <token>`.
 */
const probeSchema = z
  .object({
    url: httpUrl,
    token: z.string().min(1),
    tag: z.string().default('none'),
    timeout: receiverTimeout,
  })
  .strict();

export const probe = {
  kind: 'probe',
  schema: () => probeSchema,
  defaults: { tag: 'none', timeout: DEFAULT_RECEIVER_TIMEOUT_MS },
  redact: { url: 'url', token: 'secret', tag: 'keep', timeout: 'keep' },
  create: (name, c, deps) => ({
    name,
    async send({ notification, idempotencyKey }, signal) {
      const body = JSON.stringify({ receiver: name, tag: c.tag, alerts: notification.alerts.map((a) => `${a.fingerprint}:${a.status}`) });
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${c.token}`, 'idempotency-key': idempotencyKey };
      await postNotification(deps, 'probe', { url: new URL(c.url), headers, privateHeaders: ['authorization'], body }, c.timeout, signal);
    },
  }),
} satisfies ReceiverPlugin<z.output<typeof probeSchema>>;

/** The daemon's receiver kinds and the probe. */
export const withProbe = receiverRegistry.with(probe);
