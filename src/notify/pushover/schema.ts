import { z } from 'zod';
import { httpUrl, withDefault } from '../../lib/schema-types';
import { DEFAULT_RECEIVER_TIMEOUT_MS, receiverTimeout } from '../kit/receiver-schema';
import { SEVERITY_SCALES } from '../kit/severity';

/** Pushover's public API (DESIGN.md section 4). */
export const DEFAULT_PUSHOVER_URL = 'https://api.pushover.net';

/** Pushover's priorities: -2 (no notification) to 2 (emergency: repeated until acknowledged). */
const priority = z.number().int().min(-2).max(2);

/** Pushover's bounds on an emergency's `retry` (at least 30 s) and `expire` (at most 3 hours), in seconds. */
export const PUSHOVER_RETRY_MIN_S = 30;
export const PUSHOVER_EXPIRE_MAX_S = 10_800;

/** A rule's severity as a Pushover priority: critical wakes someone until acknowledged. */
export const DEFAULT_PRIORITIES = SEVERITY_SCALES.pushover.bySeverity;

export const PUSHOVER_DEFAULTS = {
  api_url: DEFAULT_PUSHOVER_URL,
  timeout: DEFAULT_RECEIVER_TIMEOUT_MS,
  priorities: { ...DEFAULT_PRIORITIES },
  resolved_priority: SEVERITY_SCALES.pushover.resolved,
  other_priority: SEVERITY_SCALES.pushover.other,
  retry: 60,
  expire: 3600,
  html: true,
};

/** An application token and a user (or group) key are 30 letters and digits; never quoted in a message (they are secrets). */
const key = (what: string) => z.string().refine((k) => /^[A-Za-z0-9]{30}$/.test(k), { message: `a Pushover ${what} is 30 letters and digits (not shown: it is a secret)` });

/** The `pushover:` block of a receiver (DESIGN.md section 4: `token`, `user` and `api_url` are a contract). */
export const pushoverSchema = z
  .object({
    /** The application's API token: a secret. */
    token: key('application token'),
    /** The user or group key: a secret. */
    user: key('user key'),
    api_url: withDefault(httpUrl, DEFAULT_PUSHOVER_URL),
    timeout: receiverTimeout,
    /** A firing alert's priority by its rule's `severity`; a group's message takes its most urgent alert's. */
    priorities: z.record(priority).default(PUSHOVER_DEFAULTS.priorities),
    /** A firing alert whose severity `priorities` does not name. */
    other_priority: priority.default(PUSHOVER_DEFAULTS.other_priority),
    /** A message of resolved alerts only (-1: quiet, nobody is woken to hear that it is over). */
    resolved_priority: priority.default(PUSHOVER_DEFAULTS.resolved_priority),
    /** An emergency (2) is repeated every `retry` seconds until acknowledged, for at most `expire` seconds. */
    retry: z.number().int().min(PUSHOVER_RETRY_MIN_S).default(PUSHOVER_DEFAULTS.retry),
    expire: z.number().int().min(1).max(PUSHOVER_EXPIRE_MAX_S).default(PUSHOVER_DEFAULTS.expire),
    /** Pushover's HTML mode (bold titles, a link per alert); upstream text is escaped either way. */
    html: z.boolean().default(PUSHOVER_DEFAULTS.html),
    /**
     * Unset (the default): a group is as many messages as its alerts need, none left out. Set: at
     * most this many messages a group, the last saying how many alerts had no room in any.
     */
    max_messages: z.number().int().min(1).optional(),
  })
  .strict();

export type PushoverConfig = z.output<typeof pushoverSchema>;
