/**
 * The spotwatch config file (DESIGN.md section 4: the key names are a contract). Each section
 * validates itself and fills its defaults; types come from here with z.output.
 */
import { LOG_FORMATS } from '../lib/logger';
import { resolve } from 'node:path';
import { z } from 'zod';
import { byteSize, hostPort, httpUrl, pattern, withDefault } from '../lib/schema-types';
import type { ReceiverRegistry } from '../notify/receiver-registry';
import { receiverRegistry } from '../notify/registry';
import { CHAIN_NAME, CHAIN_NAME_MESSAGE } from '../lib/chain-name';
import { DEFAULT_HISTORY_RETENTION_MS, DEFAULT_LISTEN, DEFAULT_LOG_LEVEL, DEFAULT_RECORD_MAX_AGE_MS, DEFAULT_RECORD_MAX_BYTES, DEFAULT_STATE_DIR } from './defaults';
import { exchangeSchema } from './exchange-schema';
import { notifySchema } from './notify-schema';
import { LOG_LEVELS, positiveSpan, retention, type FileResolver, filePath } from './schema-parts';

export { LOG_LEVELS, type LogLevel } from './schema-parts';

export interface SchemaOptions {
  /** Whether a signing dialect's exchange needs its credentials (replay sends nothing). Default true. */
  credentials?: boolean;
}

/**
 * The schema of a config file in `baseDir`, against which relative file paths resolve. The
 * receivers' blocks come from `receivers` (a test adds kinds of its own).
 */
export function configSchema(baseDir: string, receivers: ReceiverRegistry = receiverRegistry, options: SchemaOptions = {}) {
  const file: FileResolver = (path) => resolve(baseDir, path);
  return z
    .object({
      exchanges: z.array(exchangeSchema(file, options)).min(1, { message: 'needs at least one exchange' }),
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
      /**
       * The recording of every answer for `spotwatch replay`: on when `dir` is set (or `run
       * --record DIR`), bounded by size and age (the oldest segments go first).
       */
      record: z
        .object({
          // Relative to the working directory, as state_dir.
          dir: z.string().min(1).optional(),
          max_size: withDefault(byteSize, DEFAULT_RECORD_MAX_BYTES).refine((n) => n > 0, { message: 'must be greater than 0' }),
          max_age: withDefault(positiveSpan, DEFAULT_RECORD_MAX_AGE_MS),
        })
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
