/**
 * The spotwatch config file (DESIGN.md section 4: the key names are a contract). Each section
 * validates itself and fills its defaults; types come from here with z.output.
 */
import { LOG_FORMATS } from '../lib/logger';
import { resolve } from 'node:path';
import { z } from 'zod';
import {
  byteSize,
  describeValue,
  duration,
  headerMap,
  MAX_SPAN_MS,
  MAX_TIMER_MS,
  hostPort,
  httpUrl,
  pattern,
  positiveTimer,
  withDefault,
} from '../lib/schema-types';
import type { ConfiguredReceiver } from '../notify/plugin';
import type { ReceiverRegistry } from '../notify/receiver-registry';
import { receiverRegistry } from '../notify/registry';
import { DEFAULT_DIALECT, dialects } from '../exchange/dialects/registry';
import { SIMULATOR_DIALECTS } from '../simulator/dialects/names';
import { CHAIN_NAME, CHAIN_NAME_MESSAGE } from '../lib/chain-name';
import { receiverKindIssue } from './checks';
import {
  DEFAULT_DELIVERY_BASE_DELAY_MS,
  DEFAULT_DELIVERY_MAX_AGE_MS,
  DEFAULT_DELIVERY_MAX_DELAY_MS,
  DEFAULT_GROUP_BY,
  DEFAULT_GUARD_CONFIRM_MS,
  DEFAULT_GUARD_CONFIRM_POLLS,
  DEFAULT_GUARD_MAX_SHRINK,
  DEFAULT_HISTORY_RETENTION_MS,
  DEFAULT_GROUP_INTERVAL_MS,
  DEFAULT_GROUP_WAIT_MS,
  DEFAULT_LISTEN,
  DEFAULT_LOG_LEVEL,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_POLL_COINS_MS,
  DEFAULT_POLL_TICKERS_MS,
  DEFAULT_REPEAT_INTERVAL_MS,
  DEFAULT_RETRIES_MAX,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_SCENARIO_FILE,
  DEFAULT_STATE_DIR,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_WEIGHT_LIMIT_MAX,
  DEFAULT_WEIGHT_LIMIT_WINDOW_MS,
} from './defaults';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Resolves a path written in the config file against the file's own directory. */
type FileResolver = (path: string) => string;

// ---------------------------------------------------------------------------------------------
// Small types

/** Every duration key is bounded by its use (a longer one is a typo, or would overflow a timer). */
const timer = duration({ max: MAX_TIMER_MS });
/** Compared with the clock, never waited for: a year is the most anyone means. */
const positiveSpan = duration({ positive: true, max: MAX_SPAN_MS });
/** How long change history is kept: rows are pruned against the clock. */
const retention = duration({ positive: true, max: 10 * MAX_SPAN_MS });

/** Exchange and receiver names become Prometheus label values and file names in state_dir. */
const NAME = /^[A-Za-z0-9_.-]+$/;
const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function objectName(what: string) {
  return z.string().refine((v) => NAME.test(v), (v) => ({
    message: `invalid ${what} name ${describeValue(v)} (use letters, digits, _, . and -)`,
  }));
}

const labelName = z.string().refine((v) => LABEL_NAME.test(v), (v) => ({
  message: `invalid label name ${describeValue(v)} (use letters, digits and _, not starting with a digit)`,
  params: { at: 'key' },
}));

/** `...` groups by every label, as in Alertmanager. */
const groupBy = z.array(
  z.string().refine((v) => v === '...' || LABEL_NAME.test(v), (v) => ({
    message: `invalid label name ${describeValue(v)} (use letters, digits and _, or "..." for all labels)`,
  })),
);

function filePath(file: FileResolver) {
  return z.string().min(1).transform(file);
}

// ---------------------------------------------------------------------------------------------
// Exchanges

const simulateSchema = z
  .object({
    coins: z.number().int().positive().optional(),
    seed: z.number().int().optional(),
    scenario: z.string().min(1).optional(),
    /** Also serve the embedded exchange here, for a browser or a second watcher. */
    listen: hostPort.optional(),
    /** The API the embedded exchange speaks: the exchange's own `dialect` (the default). */
    dialect: z.enum(SIMULATOR_DIALECTS).optional(),
    /** The key its signed endpoints accept (binance, mexc, okx, bybit); a secret, redacted on display. */
    credentials: z
      .object({ api_key: z.string().min(1), api_secret: z.string().min(1), passphrase: z.string().min(1).optional() })
      .strict()
      .optional(),
  })
  .strict();

const retriesSchema = z
  .object({
    max: z.number().int().min(0).default(DEFAULT_RETRIES_MAX),
    base_delay: withDefault(timer, DEFAULT_RETRY_BASE_DELAY_MS),
    max_delay: withDefault(positiveTimer, DEFAULT_RETRY_MAX_DELAY_MS),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.max_delay < r.base_delay) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['max_delay'], message: 'must not be shorter than base_delay' });
    }
  });

/** The guard against a broken upstream: a sudden shrink is held until it persists. */
const guardSchema = z
  .object({
    /** A list shrinking by more than this fraction at once is suspect. */
    max_shrink: z.number().gt(0).lt(1).default(DEFAULT_GUARD_MAX_SHRINK),
    /** ...and becomes real only after this many polls... */
    confirm_polls: z.number().int().min(1).default(DEFAULT_GUARD_CONFIRM_POLLS),
    /** ...and this long. */
    confirm_for: withDefault(timer, DEFAULT_GUARD_CONFIRM_MS),
  })
  .strict();

/**
 * An exchange's `credentials` against its dialect's own schema (`api_key`, `api_secret`, OKX's
 * `passphrase`): required by a dialect that signs, refused by one that does not. Issues are
 * under `credentials`, so check-config gives their FILE:LINE:COL; values are never quoted.
 */
function credentialsFit(name: string, credentials: Record<string, unknown> | undefined, ctx: z.RefinementCtx): boolean {
  const schema = dialects.named(name).credentials;
  if (schema === undefined) {
    if (credentials === undefined) return true;
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['credentials'], message: `dialect ${name} signs nothing: remove credentials` });
    return false;
  }
  if (credentials === undefined) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['dialect'], message: `dialect ${name} signs its requests: credentials are required (a read-only API key)` });
    return false;
  }
  const parsed = schema.safeParse(credentials);
  if (parsed.success) return true;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['credentials', ...issue.path], message: issue.message });
  }
  return false;
}

function exchangeSchema(file: FileResolver) {
  return z
    .object({
      name: objectName('exchange'),
      /** The exchange's API: the spec's own (`spot-v3`) unless the exchange speaks another's. */
      dialect: z.enum(dialects.names()).default(DEFAULT_DIALECT),
      // Empty counts as absent, so `base_url: ${EXCHANGE_URL:-}` falls back to the embedded exchange.
      base_url: z.preprocess((v) => (v === '' ? undefined : v), httpUrl.optional()),
      /** The keys of a dialect whose requests are signed (checked against the dialect's own schema below); secrets, redacted everywhere. */
      credentials: z.record(z.string(), z.unknown()).optional(),
      poll: z
        .object({
          coins: withDefault(positiveTimer, DEFAULT_POLL_COINS_MS),
          tickers: withDefault(positiveTimer, DEFAULT_POLL_TICKERS_MS),
        })
        .strict()
        .default({}),
      timeout: withDefault(positiveTimer, DEFAULT_TIMEOUT_MS),
      weight_limit: z
        .object({
          max: z.number().int().positive().default(DEFAULT_WEIGHT_LIMIT_MAX),
          window: withDefault(positiveTimer, DEFAULT_WEIGHT_LIMIT_WINDOW_MS),
        })
        .strict()
        .default({}),
      symbols: z.array(z.string().min(1)).default([]),
      max_body_bytes: withDefault(byteSize, DEFAULT_MAX_BODY_BYTES).refine((n) => n > 0, { message: 'must be greater than 0' }),
      retries: retriesSchema.default({}),
      headers: headerMap.optional(),
      simulate: simulateSchema.optional(),
      guard: guardSchema.default({}),
    })
    .strict()
    .superRefine((ex, ctx) => {
      const spoken = ex.simulate?.dialect;
      if (spoken !== undefined && spoken !== ex.dialect) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['simulate', 'dialect'], message: `must be the exchange's dialect (${ex.dialect}): the watcher reads what the embedded exchange speaks` });
      }
    })
    .transform(({ simulate, ...given }, ctx) => {
      if (!credentialsFit(given.dialect, given.credentials, ctx)) return z.NEVER;
      // Without a base_url, an exchange is reached where its dialect says (spot-v3 says nothing),
      // unless it has a simulate block: then the embedded exchange speaks its dialect.
      const baseUrl = given.base_url ?? (simulate !== undefined ? undefined : dialects.named(given.dialect).defaults.baseUrl);
      const exchange = baseUrl === given.base_url ? given : { ...given, base_url: baseUrl };
      return {
        ...exchange,
        // Only the embedded exchange is simulated; with a base_url the block is ignored, so a
        // config can switch between the two with an environment variable alone.
        simulate:
          exchange.base_url === undefined
            ? { ...simulate, scenario: simulate?.scenario !== undefined ? file(simulate.scenario) : DEFAULT_SCENARIO_FILE }
            : undefined,
      };
    });
}

// ---------------------------------------------------------------------------------------------
// Receivers and routes

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
    matchers: matcherMap,
    starts_at: z.string().datetime({ offset: true }),
    ends_at: z.string().datetime({ offset: true }),
    comment: z.string().default(''),
  })
  .strict();

const maintenanceSchema = z
  .object({
    name: z.string().min(1),
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

function notifySchema(file: FileResolver, receivers: ReceiverRegistry) {
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

/**
 * The schema of a config file in `baseDir`, against which relative file paths resolve. The
 * receivers' blocks come from `receivers` (a test adds kinds of its own).
 */
export function configSchema(baseDir: string, receivers: ReceiverRegistry = receiverRegistry) {
  const file: FileResolver = (path) => resolve(baseDir, path);
  return z
    .object({
      exchanges: z.array(exchangeSchema(file)).min(1, { message: 'needs at least one exchange' }),
      server: z
        .object({
          listen: hostPort.default(DEFAULT_LISTEN),
          /** When set, /api/v1/* and /-/reload require `Authorization: Bearer <token>`. */
          bearer_token: z.string().min(1).optional(),
          /** How links in notifications reach this daemon (default: http://<listen>). */
          external_url: httpUrl.optional(),
        })
        .strict()
        .default({}),
      // Relative to the working directory, not to this file: data belongs to the run, not to the config.
      state_dir: z.string().min(1).default(DEFAULT_STATE_DIR),
      /** How long the history of changes is kept. */
      history_retention: withDefault(retention, DEFAULT_HISTORY_RETENTION_MS),
      rules_file: filePath(file).optional(),
      log: z.object({ level: z.enum(LOG_LEVELS).default(DEFAULT_LOG_LEVEL), format: z.enum(LOG_FORMATS).default('auto') }).strict().default({}),
      /** Which coins, networks and symbols get per-network and per-ticker series (cardinality). */
      metrics: z
        .object({
          include: z.object({ coin: pattern, network: pattern, chain: pattern, symbol: pattern }).partial().strict().default({}),
          exclude: z.object({ coin: pattern, network: pattern, chain: pattern, symbol: pattern }).partial().strict().default({}),
        })
        .strict()
        .default({}),
      notify: notifySchema(file, receivers).default({}),
      /**
       * The canonical chains (dialects.md section 3): `aliases` maps a network id, exactly as an
       * exchange sends it, to a chain, for every dialect, before the shipped table.
       */
      chains: z
        .object({ aliases: z.record(z.string().min(1), z.string().regex(CHAIN_NAME, CHAIN_NAME_MESSAGE)).default({}) })
        .strict()
        .default({}),
    })
    .strict();
}

export type Config = z.output<ReturnType<typeof configSchema>>;
export type ExchangeConfig = Config['exchanges'][number];
export type SimulateConfig = NonNullable<ExchangeConfig['simulate']>;
export type NotifyConfig = Config['notify'];
export type ReceiverConfig = Config['notify']['receivers'][number];
export type RouteConfig = Config['notify']['routes'][number];
