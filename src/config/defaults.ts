/** Defaults of the spotwatch config (DESIGN.md section 4), in output units: ms and bytes. */
import { resolve } from 'node:path';
import { DEFAULT_GUARD } from '../lib/guard-defaults';

export const DEFAULT_POLL_COINS_MS = 30_000;
export const DEFAULT_POLL_TICKERS_MS = 10_000;
export const DEFAULT_TIMEOUT_MS = 5_000;
/** The spec's own budget for the reference exchange: 500 weight per 10 s per IP. */
export const DEFAULT_WEIGHT_LIMIT_MAX = 500;
export const DEFAULT_WEIGHT_LIMIT_WINDOW_MS = 10_000;
/** A full coins answer at real scale is a few MiB; 32 MiB leaves room and still caps a runaway body. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
export const DEFAULT_RETRIES_MAX = 2;
/**
 * The most retries of one request: more only delays the failure (the client also stops retrying
 * when a retry would end past the poll's interval, so a failing exchange is reported down on time).
 */
export const MAX_RETRIES = 10;
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
export const DEFAULT_RETRY_MAX_DELAY_MS = 10_000;
/** Notices (notices.md section 4): read every 2 minutes; an announcement explains a closure for 14 days. */
export const DEFAULT_NOTICES_POLL_MS = 120_000;
export const DEFAULT_NOTICES_EXPLAINS_FOR_MS = 14 * 86_400_000;

/** Loopback by default: metrics and the API are exposed on purpose, not by accident. */
export const DEFAULT_LISTEN = '127.0.0.1:9464';
/** Relative to the working directory (unlike rules_file), like Prometheus' --storage.tsdb.path. */
export const DEFAULT_STATE_DIR = './data';
export const DEFAULT_LOG_LEVEL = 'info';
export const DEFAULT_HISTORY_RETENTION_MS = 30 * 86_400_000;
/** A recording (run --record) keeps at most this many bytes, compressed... */
export const DEFAULT_RECORD_MAX_BYTES = 1_000_000_000;
/** ...and nothing older than this: a week covers last week's incident. */
export const DEFAULT_RECORD_MAX_AGE_MS = 7 * 86_400_000;

export const DEFAULT_GUARD_MAX_SHRINK = DEFAULT_GUARD.maxShrink;
export const DEFAULT_GUARD_CONFIRM_POLLS = DEFAULT_GUARD.confirmPolls;
export const DEFAULT_GUARD_CONFIRM_MS = DEFAULT_GUARD.confirmMs;

export const DEFAULT_GROUP_BY: readonly string[] = ['exchange', 'alertname'];
export const DEFAULT_GROUP_WAIT_MS = 10_000;
export const DEFAULT_GROUP_INTERVAL_MS = 60_000;
export const DEFAULT_REPEAT_INTERVAL_MS = 4 * 3_600_000;
export const DEFAULT_DELIVERY_BASE_DELAY_MS = 1_000;
export const DEFAULT_DELIVERY_MAX_DELAY_MS = 5 * 60_000;
/** Long enough to ride out a receiver's maintenance; then the dead letters. */
export const DEFAULT_DELIVERY_MAX_AGE_MS = 12 * 3_600_000;
/** The receivers' own defaults are in their folders (src/notify/<kind>/schema.ts). */

/** The demo scenario shipped in config/scenarios; `../..` holds from both src/config and dist/config. */
export const DEFAULT_SCENARIO_FILE = resolve(__dirname, '..', '..', 'config', 'scenarios', 'demo.yaml');
