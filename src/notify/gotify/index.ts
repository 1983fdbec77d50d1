import type { ReceiverPlugin } from '../plugin';
import { gotifyNotifier } from './gotify';
import { GOTIFY_DEFAULTS, gotifySchema, type GotifyConfig } from './schema';

/** `gotify: { url, token }`: each group as Gotify messages (POST /message, X-Gotify-Key); the token is a secret. */
export const gotify = {
  kind: 'gotify',
  schema: () => gotifySchema,
  defaults: GOTIFY_DEFAULTS,
  redact: { url: 'url', token: 'secret', timeout: 'keep', markdown: 'keep' },
  create: (name, c, deps) => gotifyNotifier({ name, url: c.url, token: c.token, timeoutMs: c.timeout, markdown: c.markdown }, deps),
} satisfies ReceiverPlugin<GotifyConfig>;
