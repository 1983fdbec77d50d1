/** What the sections of the config schema share: bounded durations, names, file paths. */
import { z } from 'zod';
import { describeValue, duration, MAX_SPAN_MS, MAX_TIMER_MS } from '../lib/schema-types';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Resolves a path written in the config file against the file's own directory. */
export type FileResolver = (path: string) => string;

// ---------------------------------------------------------------------------------------------
// Small types

/** Every duration key is bounded by its use (a longer one is a typo, or would overflow a timer). */
export const timer = duration({ max: MAX_TIMER_MS });
/** Compared with the clock, never waited for: a year is the most anyone means. */
export const positiveSpan = duration({ positive: true, max: MAX_SPAN_MS });
/** How long change history is kept: rows are pruned against the clock. */
export const retention = duration({ positive: true, max: 10 * MAX_SPAN_MS });

/** Exchange and receiver names become Prometheus label values and file names in state_dir. */
export const NAME = /^[A-Za-z0-9_.-]+$/;
export const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function objectName(what: string) {
  return z.string().refine((v) => NAME.test(v), (v) => ({
    message: `invalid ${what} name ${describeValue(v)} (use letters, digits, _, . and -)`,
  }));
}

export const labelName = z.string().refine((v) => LABEL_NAME.test(v), (v) => ({
  message: `invalid label name ${describeValue(v)} (use letters, digits and _, not starting with a digit)`,
  params: { at: 'key' },
}));

/** `...` groups by every label, as in Alertmanager. */
export const groupBy = z.array(
  z.string().refine((v) => v === '...' || LABEL_NAME.test(v), (v) => ({
    message: `invalid label name ${describeValue(v)} (use letters, digits and _, or "..." for all labels)`,
  })),
);

export function filePath(file: FileResolver) {
  return z.string().min(1).transform(file);
}
