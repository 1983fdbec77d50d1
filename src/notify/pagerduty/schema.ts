import { z } from 'zod';
import { httpUrl, withDefault } from '../../lib/schema-types';
import { DEFAULT_RECEIVER_TIMEOUT_MS, messageTemplate, receiverTimeout } from '../kit/receiver-schema';

/** Events API v2, PagerDuty's public address (DESIGN.md section 4). */
export const DEFAULT_PAGERDUTY_URL = 'https://events.pagerduty.com/v2/enqueue';

/**
 * What a change alert (an event: it fires once and never resolves) does in PagerDuty: an
 * incident opened and resolved at once, which records it without leaving it open for someone
 * to close (the default), or an incident opened and left for the on-call to resolve.
 */
export const PAGERDUTY_EVENT_MODES = ['trigger_and_resolve', 'trigger_only'] as const;
export type PagerDutyEventMode = (typeof PAGERDUTY_EVENT_MODES)[number];

/** An Events API v2 integration's key has 32 characters. */
const ROUTING_KEY_LENGTH = 32;

export const PAGERDUTY_DEFAULTS = { url: DEFAULT_PAGERDUTY_URL, timeout: DEFAULT_RECEIVER_TIMEOUT_MS, events: 'trigger_and_resolve' as PagerDutyEventMode };

/** The `pagerduty:` block of a receiver (DESIGN.md section 4: `routing_key` and `url` are a contract). */
export const pagerdutySchema = z
  .object({
    /** The Integration Key of an Events API v2 integration: a secret (never quoted in a message). */
    routing_key: z.string().refine((k) => k.length === ROUTING_KEY_LENGTH, {
      message: `a routing key has ${ROUTING_KEY_LENGTH} characters (the Integration Key of an "Events API V2" integration)`,
    }),
    url: withDefault(httpUrl, DEFAULT_PAGERDUTY_URL),
    timeout: receiverTimeout,
    events: z.enum(PAGERDUTY_EVENT_MODES).default(PAGERDUTY_DEFAULTS.events),
    /** Each alert's `payload.summary` instead of the default (the alert's fields, as they are). */
    summary_template: messageTemplate,
  })
  .strict();

export type PagerDutyConfig = z.output<typeof pagerdutySchema>;
