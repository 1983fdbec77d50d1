/** The `exchanges[]` section of the config (DESIGN.md section 4). */
import { z } from 'zod';
import { byteSize, headerMap, hostPort, httpUrl, positiveTimer, withDefault } from '../lib/schema-types';
import { DEFAULT_DIALECT, dialects } from '../exchange/dialects/registry';
import { SIMULATOR_DIALECTS } from '../simulator/dialects/names';
import { MAX_SIMULATED_COINS } from '../lib/simulated-market';
import { DEFAULT_FLAPPING } from '../lib/guard-defaults';
import { DEFAULT_GUARD_CONFIRM_MS, DEFAULT_GUARD_CONFIRM_POLLS, DEFAULT_GUARD_MAX_SHRINK, DEFAULT_MAX_BODY_BYTES, DEFAULT_NOTICES_EXPLAINS_FOR_MS, DEFAULT_NOTICES_POLL_MS, DEFAULT_POLL_COINS_MS, DEFAULT_POLL_TICKERS_MS, DEFAULT_RETRIES_MAX, MAX_RETRIES, DEFAULT_RETRY_BASE_DELAY_MS, DEFAULT_RETRY_MAX_DELAY_MS, DEFAULT_SCENARIO_FILE, DEFAULT_TIMEOUT_MS, DEFAULT_WEIGHT_LIMIT_MAX, DEFAULT_WEIGHT_LIMIT_WINDOW_MS } from './defaults';

import { objectName, timer, type FileResolver } from './schema-parts';

// ---------------------------------------------------------------------------------------------
// Exchanges

const simulateSchema = z
  .object({
    coins: z.number().int().positive().max(MAX_SIMULATED_COINS).optional(),
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
    max: z.number().int().min(0).max(MAX_RETRIES).default(DEFAULT_RETRIES_MAX),
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

/** Flap detection (rules/flapping.ts): Nagios' percent state change over the last `window` polls, with hysteresis. */
const flappingSchema = z
  .object({
    enabled: z.boolean().default(DEFAULT_FLAPPING.enabled),
    /** Polls looked back over. */
    window: z.number().int().min(3).max(1000).default(DEFAULT_FLAPPING.window),
    /** A network or symbol starts flapping at this percent state change... */
    high_percent: z.number().gt(0).max(100).default(DEFAULT_FLAPPING.highPercent),
    /** ...and stops under this one. */
    low_percent: z.number().min(0).max(100).default(DEFAULT_FLAPPING.lowPercent),
  })
  .strict()
  .refine((f) => f.low_percent < f.high_percent, { message: 'low_percent must be under high_percent' });

/** What an exchange says before and while it closes (notices.md section 4); `false` reads none. */
const noticesSchema = z
  .union([
    z.literal(false),
    z
      .object({
        poll: withDefault(positiveTimer, DEFAULT_NOTICES_POLL_MS),
        /** An Atlassian Statuspage's URL (its own host). */
        statuspage: httpUrl.optional(),
        /** Binance's undocumented announcement list. */
        unofficial: z.boolean().default(false),
        explains_for: withDefault(positiveTimer, DEFAULT_NOTICES_EXPLAINS_FOR_MS),
      })
      .strict(),
  ])
  .default({});

/**
 * An exchange's `credentials` against its dialect's own schema (`api_key`, `api_secret`, OKX's
 * `passphrase`): required by a dialect that signs, refused by one that does not. Issues are
 * under `credentials`, so check-config gives their FILE:LINE:COL; values are never quoted.
 */
function credentialsFit(name: string, credentials: Record<string, unknown> | undefined, ctx: z.RefinementCtx, required: boolean): boolean {
  const schema = dialects.named(name).credentials;
  if (schema === undefined) {
    if (credentials === undefined) return true;
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['credentials'], message: `dialect ${name} signs nothing: remove credentials` });
    return false;
  }
  if (credentials === undefined) {
    if (!required) return true;
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

/**
 * One exchange's block. `credentials: false` (replay, which sends nothing) takes a signing
 * dialect's exchange without its keys; given keys are still checked.
 */
export function exchangeSchema(file: FileResolver, options: { credentials?: boolean } = {}) {
  const credentialsRequired = options.credentials !== false;
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
      // Each part left out is the dialect's documented limit (DialectDefaults.weightLimit), else the default.
      weight_limit: z
        .object({ max: z.number().int().positive().optional(), window: positiveTimer.optional() })
        .strict()
        .default({}),
      symbols: z.array(z.string().min(1)).default([]),
      max_body_bytes: withDefault(byteSize, DEFAULT_MAX_BODY_BYTES).refine((n) => n > 0, { message: 'must be greater than 0' }),
      retries: retriesSchema.default({}),
      headers: headerMap.optional(),
      simulate: simulateSchema.optional(),
      guard: guardSchema.default({}),
      flapping: flappingSchema.default({}),
      notices: noticesSchema,
    })
    .strict()
    .superRefine((ex, ctx) => {
      const spoken = ex.simulate?.dialect;
      if (spoken !== undefined && spoken !== ex.dialect) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['simulate', 'dialect'], message: `must be the exchange's dialect (${ex.dialect}): the watcher reads what the embedded exchange speaks` });
      }
    })
    .transform(({ simulate, ...given }, ctx) => {
      if (!credentialsFit(given.dialect, given.credentials, ctx, credentialsRequired)) return z.NEVER;
      // Without a base_url, an exchange is reached where its dialect says (spot-v3 says nothing),
      // unless it has a simulate block: then the embedded exchange speaks its dialect.
      const baseUrl = given.base_url ?? (simulate !== undefined ? undefined : dialects.named(given.dialect).defaults.baseUrl);
      const exchange = baseUrl === given.base_url ? given : { ...given, base_url: baseUrl };
      const limit = dialects.named(given.dialect).defaults.weightLimit;
      return {
        ...exchange,
        weight_limit: {
          max: given.weight_limit.max ?? limit?.max ?? DEFAULT_WEIGHT_LIMIT_MAX,
          window: given.weight_limit.window ?? limit?.windowMs ?? DEFAULT_WEIGHT_LIMIT_WINDOW_MS,
        },
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
