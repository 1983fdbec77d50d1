/**
 * The spotwatch config file (DESIGN.md section 4: the key names are a contract). Each section
 * validates itself and fills its defaults; types come from here with z.output.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import {
  byteSize,
  describeValue,
  duration,
  MAX_SPAN_MS,
  MAX_TIMER_MS,
  hostPort,
  httpUrl,
  pattern,
  urlWithScheme,
  withDefault,
} from '../lib/schema-types';
import { DEFAULT_DIALECT, dialects } from '../exchange/dialects/registry';
import { receiverKindIssue } from './checks';
import {
  DEFAULT_ALERTMANAGER_RESEND_MS,
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
  DEFAULT_RECEIVER_NAME,
  DEFAULT_RECEIVER_TIMEOUT_MS,
  DEFAULT_REPEAT_INTERVAL_MS,
  DEFAULT_RETRIES_MAX,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_SCENARIO_FILE,
  DEFAULT_STATE_DIR,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_WEBHOOK_MAX_ALERTS,
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
const positiveTimer = duration({ positive: true, max: MAX_TIMER_MS });
/** Compared with the clock, never waited for: a year is the most anyone means. */
const positiveSpan = duration({ positive: true, max: MAX_SPAN_MS });
/** How long change history is kept: rows are pruned against the clock. */
const retention = duration({ positive: true, max: 10 * MAX_SPAN_MS });

/** Exchange and receiver names become Prometheus label values and file names in state_dir. */
const NAME = /^[A-Za-z0-9_.-]+$/;
const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** RFC 9110 token: anything else could smuggle a second header or break the request line. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

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

/** Header values may be secrets: messages never quote them. */
const headerMap = z.record(
  z.string().refine((v) => HEADER_NAME.test(v), (v) => ({
    message: `invalid header name ${describeValue(v)}`,
    params: { at: 'key' },
  })),
  z.string().refine((v) => !/[\r\n]/.test(v), { message: 'header value must not contain line breaks' }),
);

const emailAddress = z.string().refine(
  (v) => /^[^\s@<>]+@[^\s@<>]+$/.test(v) || /^[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>$/.test(v),
  (v) => ({ message: `invalid e-mail address ${describeValue(v)} (use ops@example.org or "Ops <ops@example.org>")` }),
);

const smtpUrl = urlWithScheme(['smtp', 'smtps'], 'smtp://HOST:587 or smtps://HOST:465');

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

function exchangeSchema(file: FileResolver) {
  return z
    .object({
      name: objectName('exchange'),
      /** The exchange's API: the spec's own (`spot-v3`) unless the exchange speaks another's. */
      dialect: z.enum(dialects.names()).default(DEFAULT_DIALECT),
      // Empty counts as absent, so `base_url: ${EXCHANGE_URL:-}` falls back to the embedded exchange.
      base_url: z.preprocess((v) => (v === '' ? undefined : v), httpUrl.optional()),
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
    .transform(({ simulate, ...given }) => {
      // Without a base_url, an exchange is reached where its dialect says (spot-v3 says nothing).
      const baseUrl = given.base_url ?? dialects.named(given.dialect).defaults.baseUrl;
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

const webhookSchema = z
  .object({
    url: httpUrl,
    timeout: withDefault(positiveTimer, DEFAULT_RECEIVER_TIMEOUT_MS),
    /** HMAC-SHA256 key for the body signature. */
    secret: z.string().min(1).optional(),
    headers: headerMap.optional(),
    max_alerts: z.number().int().min(0).default(DEFAULT_WEBHOOK_MAX_ALERTS),
    /** A body of your own instead of the version 4 body: a template over the notification's fields (values JSON-escaped). */
    body_template: z.string().min(1).optional(),
    /** Content-Type of a templated body. */
    content_type: z.string().regex(/^[\w.+-]+\/[\w.+-]+(;.*)?$/, 'use a media type such as application/json').optional(),
  })
  .strict();

function emailSchema(file: FileResolver) {
  return z
    .object({
      smtp_url: smtpUrl,
      from: emailAddress,
      // A single address is accepted too: `to: ops@example.org` is what people write first.
      to: z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(emailAddress).min(1)),
      subject: z.string().optional(),
      username: z.string().min(1).optional(),
      password: z.string().min(1).optional(),
      // Files are relative to the config file, as in Alertmanager, so a config dir is movable.
      password_file: filePath(file).optional(),
      require_tls: z.boolean().optional(),
      tls: z
        .object({
          reject_unauthorized: z.boolean().default(true),
          ca_file: filePath(file).optional(),
        })
        .strict()
        .optional(),
      timeout: withDefault(positiveTimer, DEFAULT_RECEIVER_TIMEOUT_MS),
    })
    .strict()
    .superRefine((email, ctx) => {
      if (email.password !== undefined && email.password_file !== undefined) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['password_file'],
          params: { at: 'key' },
          message: 'set password or password_file, not both',
        });
      }
    });
}

const alertmanagerSchema = z
  .object({
    /** Alertmanager's base URL, e.g. http://127.0.0.1:9093. */
    url: httpUrl,
    timeout: withDefault(positiveTimer, DEFAULT_RECEIVER_TIMEOUT_MS),
    /** Firing alerts are re-sent this often, or Alertmanager resolves them on its own. */
    resend_interval: withDefault(positiveTimer, DEFAULT_ALERTMANAGER_RESEND_MS),
  })
  .strict();

/** `log: {}`, `log: true` and a bare `log:` all mean "write notifications to the log". */
const logReceiverSchema = z.preprocess((v) => (v === true || v === null ? {} : v), z.object({}).strict());

function receiverSchema(file: FileResolver) {
  return z
    .object({
      name: objectName('receiver'),
      send_resolved: z.boolean().default(true),
      webhook: webhookSchema.optional(),
      email: emailSchema(file).optional(),
      alertmanager: alertmanagerSchema.optional(),
      log: logReceiverSchema.optional(),
    })
    .strict()
    .transform((r, ctx) => {
      const wrongKinds = receiverKindIssue(r);
      if (wrongKinds !== undefined) {
        const { path, message, at } = wrongKinds;
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [...path], message, params: { at } });
        return z.NEVER;
      }
      // One `kind` to switch on, and the settings under the same key as in the file.
      const base = { name: r.name, send_resolved: r.send_resolved };
      if (r.webhook !== undefined) return { ...base, kind: 'webhook' as const, webhook: r.webhook };
      if (r.email !== undefined) return { ...base, kind: 'email' as const, email: r.email };
      if (r.alertmanager !== undefined) return { ...base, kind: 'alertmanager' as const, alertmanager: r.alertmanager };
      return { ...base, kind: 'log' as const, log: r.log ?? {} };
    });
}

type Receiver = z.output<ReturnType<typeof receiverSchema>>;

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

function notifySchema(file: FileResolver) {
  return z
    .object({
      group_by: groupBy.default([...DEFAULT_GROUP_BY]),
      group_wait: withDefault(timer, DEFAULT_GROUP_WAIT_MS),
      group_interval: withDefault(positiveTimer, DEFAULT_GROUP_INTERVAL_MS),
      repeat_interval: withDefault(positiveSpan, DEFAULT_REPEAT_INTERVAL_MS),
      receivers: z.array(receiverSchema(file)).default([]),
      routes: z.array(routeSchema).default([]),
      /** Added to the built-in rules (an unreachable exchange mutes its networks and tickers; a delisted coin, its networks). */
      inhibit_rules: z.array(inhibitRuleSchema).default([]),
      silences: z.array(silenceSchema).default([]),
      maintenance: z.array(maintenanceSchema).default([]),
      retry: retrySchema.default({}),
    })
    .strict()
    .transform((notify) => {
      const fallback: Receiver = { name: DEFAULT_RECEIVER_NAME, send_resolved: true, kind: 'log', log: {} };
      const receivers: Receiver[] = notify.receivers.length > 0 ? notify.receivers : [fallback];
      return { ...notify, receivers };
    });
}

// ---------------------------------------------------------------------------------------------
// The file

/** The schema of a config file in `baseDir`, against which relative file paths resolve. */
export function configSchema(baseDir: string) {
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
      log: z.object({ level: z.enum(LOG_LEVELS).default(DEFAULT_LOG_LEVEL) }).strict().default({}),
      /** Which coins, networks and symbols get per-network and per-ticker series (cardinality). */
      metrics: z
        .object({
          include: z.object({ coin: pattern, network: pattern, symbol: pattern }).partial().strict().default({}),
          exclude: z.object({ coin: pattern, network: pattern, symbol: pattern }).partial().strict().default({}),
        })
        .strict()
        .default({}),
      notify: notifySchema(file).default({}),
    })
    .strict();
}

export type Config = z.output<ReturnType<typeof configSchema>>;
export type ExchangeConfig = Config['exchanges'][number];
export type SimulateConfig = NonNullable<ExchangeConfig['simulate']>;
export type NotifyConfig = Config['notify'];
export type ReceiverConfig = Config['notify']['receivers'][number];
export type ReceiverKind = ReceiverConfig['kind'];
export type RouteConfig = Config['notify']['routes'][number];
