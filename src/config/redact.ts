/** Config for display (API, logs, check-config --verbose): same shape, secrets replaced. */
import { REDACTED, redactUrlCredentials } from '../lib/redact-url';
import type { Config } from './schema';

function redactValues(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (headers === undefined) return undefined;
  // Names stay: which headers are sent is useful to see; their values often carry tokens.
  return Object.fromEntries(Object.keys(headers).map((name) => [name, REDACTED]));
}

export function redactConfig(config: Config): Config {
  const copy = structuredClone(config);
  if (copy.server.bearer_token !== undefined) copy.server.bearer_token = REDACTED;
  for (const exchange of copy.exchanges) {
    if (exchange.base_url !== undefined) exchange.base_url = redactUrlCredentials(exchange.base_url);
    if (exchange.headers !== undefined) exchange.headers = redactValues(exchange.headers);
  }
  for (const receiver of copy.notify.receivers) {
    switch (receiver.kind) {
      case 'webhook': {
        const hook = receiver.webhook;
        hook.url = redactUrlCredentials(hook.url);
        if (hook.secret !== undefined) hook.secret = REDACTED;
        if (hook.headers !== undefined) hook.headers = redactValues(hook.headers);
        break;
      }
      case 'email': {
        const mail = receiver.email;
        mail.smtp_url = redactUrlCredentials(mail.smtp_url);
        if (mail.password !== undefined) mail.password = REDACTED;
        break;
      }
      case 'alertmanager':
        receiver.alertmanager.url = redactUrlCredentials(receiver.alertmanager.url);
        break;
      case 'log':
        break;
    }
  }
  return copy;
}
