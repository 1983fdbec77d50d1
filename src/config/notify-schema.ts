/** The `notify` section of the config: receivers, routes, inhibition, silences, retry, digest (DESIGN.md section 4). */
import { z } from 'zod';
import { silenceMatchersProblem } from '../lib/pattern';
import { describeValue, pattern, positiveTimer, withDefault } from '../lib/schema-types';
import type { ConfiguredReceiver } from '../notify/plugin';
import type { ReceiverRegistry } from '../notify/receiver-registry';
import { receiverKindIssue } from './checks';
import { DEFAULT_DELIVERY_BASE_DELAY_MS, DEFAULT_DELIVERY_MAX_AGE_MS, DEFAULT_DELIVERY_MAX_DELAY_MS, DEFAULT_GROUP_BY, DEFAULT_GROUP_INTERVAL_MS, DEFAULT_GROUP_WAIT_MS, DEFAULT_REPEAT_INTERVAL_MS } from './defaults';

import { groupBy, labelName, objectName, positiveSpan, timer, type FileResolver } from './schema-parts';

/** A receiver: a name, send_resolved, and the block of exactly one kind the registry knows. */
function receiverSchema(file: FileResolver, receivers: ReceiverRegistry) {
  return z
    .object({
      name: objectName('receiver'),
      send_resolved: z.boolean().default(true),
      ...receivers.blockSchemas({ file }),
    })
    .strict()
    .transform((r, ctx): ConfiguredReceiver => {
      const wrongKinds = receiverKindIssue(r, receivers.kinds);
      if (wrongKinds !== undefined) {
        const { path, message, at } = wrongKinds;
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [...path], message, params: { at } });
        return z.NEVER;
      }
      // The kind named, and its block under the same key as in the file.
      return receivers.configured(r);
    });
}

const routeSchema = z
  .object({
    match: z.record(labelName, pattern).default({}),
    receivers: z.array(z.string().min(1)).min(1),
    /** Keep looking at later routes after this one matched, as in Alertmanager. */
    continue: z.boolean().default(false),
    group_by: groupBy.optional(),
    group_wait: timer.optional(),
    group_interval: positiveTimer.optional(),
    repeat_interval: positiveSpan.optional(),
  })
  .strict();

const matcherMap = z.record(labelName, pattern);

/** What a silence mutes: not everything (silenceMatchersProblem, as Alertmanager refuses it). */
const muteMatchers = matcherMap.superRefine((m, ctx) => {
  const problem = silenceMatchersProblem(Object.values(m));
  if (problem !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
});

/** Alertmanager's inhibit rule: a firing source mutes the targets that share the `equal` labels. */
const inhibitRuleSchema = z
  .object({
    source_match: matcherMap,
    target_match: matcherMap,
    equal: z.array(labelName).default([]),
  })
  .strict();

const WEEKDAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'use HH:MM (24-hour)');

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** A silence written in the config: for a time span, or (maintenance) recurring every week. */
const silenceSchema = z
  .object({
    matchers: muteMatchers,
    starts_at: z.string().datetime({ offset: true }),
    ends_at: z.string().datetime({ offset: true }),
    comment: z.string().default(''),
  })
  .strict();

const maintenanceSchema = z
  .object({
    name: z.string().min(1),
    // A recurring window may mute everything (Alertmanager's mute_time_intervals need no matchers): planned downtime is meant.
    matchers: matcherMap,
    weekdays: z.array(z.enum(WEEKDAY_NAMES)).default([]),
    start: clockTime,
    end: clockTime,
    time_zone: z.string().default('UTC').refine(validTimeZone, (tz) => ({ message: `unknown time zone ${describeValue(tz)} (use an IANA name like Europe/Berlin)` })),
  })
  .strict();

const retrySchema = z
  .object({
    base_delay: withDefault(positiveTimer, DEFAULT_DELIVERY_BASE_DELAY_MS),
    max_delay: withDefault(positiveTimer, DEFAULT_DELIVERY_MAX_DELAY_MS),
    /** A notification not delivered within this goes to the dead letters. */
    max_age: withDefault(positiveSpan, DEFAULT_DELIVERY_MAX_AGE_MS),
  })
  .strict();

/** A time zone the runtime knows (IANA names: Europe/London, UTC). */
function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** notify.digest: a daily summary at a local time (DESIGN.md section 4). */
const digestSchema = z
  .object({
    at: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'a local time, HH:MM (24 h)' }),
    timezone: z.string().refine(knownTimeZone, { message: 'an IANA time zone, such as Europe/London or UTC' }).default('UTC'),
    receivers: z.array(z.string().min(1)).min(1),
    /** Sent even when there is nothing to say (no network closed, no outage, no movers). */
    send_empty: z.boolean().default(false),
  })
  .strict();

export function notifySchema(file: FileResolver, receivers: ReceiverRegistry) {
  return z
    .object({
      group_by: groupBy.default([...DEFAULT_GROUP_BY]),
      group_wait: withDefault(timer, DEFAULT_GROUP_WAIT_MS),
      group_interval: withDefault(positiveTimer, DEFAULT_GROUP_INTERVAL_MS),
      repeat_interval: withDefault(positiveSpan, DEFAULT_REPEAT_INTERVAL_MS),
      receivers: z.array(receiverSchema(file, receivers)).default([]),
      routes: z.array(routeSchema).default([]),
      /** Added to the built-in rules (an unreachable exchange mutes its networks and tickers; a delisted coin, its networks). */
      inhibit_rules: z.array(inhibitRuleSchema).default([]),
      silences: z.array(silenceSchema).default([]),
      maintenance: z.array(maintenanceSchema).default([]),
      retry: retrySchema.default({}),
      digest: digestSchema.optional(),
    })
    .strict()
    .transform((notify) => ({ ...notify, receivers: notify.receivers.length > 0 ? notify.receivers : [receivers.fallback] }));
}

// ---------------------------------------------------------------------------------------------
// The file
