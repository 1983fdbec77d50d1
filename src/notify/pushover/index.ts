import type { ReceiverPlugin } from '../plugin';
import { pushoverNotifier } from './pushover';
import { memoryReceipts, receiptFile } from './receipts';
import { PUSHOVER_DEFAULTS, pushoverSchema, type PushoverConfig } from './schema';

/** `pushover`: a group as pushes, every alert in one (priority from severity, one emergency a group); a resolved emergency is cancelled by its receipt. Token and user key are secrets. */
export const pushover = {
  kind: 'pushover',
  schema: () => pushoverSchema,
  defaults: PUSHOVER_DEFAULTS,
  redact: {
    token: 'secret', user: 'secret', api_url: 'url', timeout: 'keep', priorities: 'keep', other_priority: 'keep',
    resolved_priority: 'keep', retry: 'keep', expire: 'keep', html: 'keep', max_messages: 'keep',
  },
  create: (name, c, deps) =>
    pushoverNotifier({
      name, apiUrl: c.api_url, timeoutMs: c.timeout, token: c.token, user: c.user, priorities: c.priorities,
      other_priority: c.other_priority, resolved_priority: c.resolved_priority, retry: c.retry, expire: c.expire,
      html: c.html, max_messages: c.max_messages,
      receipts: deps.stateDir !== undefined ? receiptFile(deps.stateDir, name) : memoryReceipts(),
    }, deps),
} satisfies ReceiverPlugin<PushoverConfig>;
