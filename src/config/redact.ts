/** Config for display (API, logs, check-config --verbose): same shape, secrets replaced. */
import { REDACTED, redactUrlCredentials } from '../lib/redact-url';
import type { ReceiverRegistry } from '../notify/receiver-registry';
import { receiverRegistry } from '../notify/registry';
import type { Config } from './schema';

function redactValues(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (headers === undefined) return undefined;
  // Names stay: which headers are sent is useful to see; their values often carry tokens.
  return Object.fromEntries(Object.keys(headers).map((name) => [name, REDACTED]));
}

/** Each receiver is redacted by its kind (ReceiverPlugin.redact, a decision for every key). */
export function redactConfig(config: Config, receivers: ReceiverRegistry = receiverRegistry): Config {
  const copy = structuredClone(config);
  if (copy.server.bearer_token !== undefined) copy.server.bearer_token = REDACTED;
  for (const exchange of copy.exchanges) {
    if (exchange.base_url !== undefined) exchange.base_url = redactUrlCredentials(exchange.base_url);
    if (exchange.headers !== undefined) exchange.headers = redactValues(exchange.headers);
    const key = exchange.simulate?.credentials;
    if (key !== undefined) {
      key.api_key = REDACTED;
      key.api_secret = REDACTED;
      if (key.passphrase !== undefined) key.passphrase = REDACTED;
    }
    // Every value of a dialect's credentials is a secret (the key too: it names the account).
    if (exchange.credentials !== undefined) exchange.credentials = redactValues(exchange.credentials as Record<string, string>);
  }
  copy.notify.receivers = copy.notify.receivers.map((r) => receivers.redact(r));
  return copy;
}
