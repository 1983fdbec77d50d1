import type { ReceiverPlugin } from '../plugin';
import { ntfyNotifier } from './ntfy';
import { NTFY_DEFAULTS, ntfySchema, type NtfyConfig } from './schema';

/** `ntfy: { url, topic, token }`: each group as JSON publishes to a topic, plain text; the topic, token and password are secrets. */
export const ntfy = {
  kind: 'ntfy',
  schema: () => ntfySchema,
  defaults: NTFY_DEFAULTS,
  redact: { url: 'url', topic: 'secret', token: 'secret', username: 'keep', password: 'secret', timeout: 'keep' },
  create: (name, c, deps) => ntfyNotifier(name, c, deps),
} satisfies ReceiverPlugin<NtfyConfig>;
