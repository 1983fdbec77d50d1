/**
 * Reusable zod types for hand-written YAML (config, rules, scenarios): each takes the human
 * form and outputs the machine form, with an error message that says what to write instead.
 */
import { z } from 'zod';
import { parseByteSize } from './byte-size';
import { formatDuration, parseDuration } from './duration';
import { parseHostPort } from './host-port';
import { patternProblem } from './pattern';
import { redactUrlCredentials } from './redact-url';

const DURATION_HINT = '(use 500ms, 15s, 5m, 4h)';
const SIZE_HINT = '(use a number of bytes, or 512KiB, 32MiB, 1GB)';

/** How a value reads in an error message: strings quoted and cut short, collections by kind. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return String(value);
}

function missing(ctx: z.RefinementCtx, expected: z.ZodParsedType): never {
  ctx.addIssue({ code: z.ZodIssueCode.invalid_type, expected, received: z.ZodParsedType.undefined });
  return z.NEVER;
}

/** The longest a timer can wait: setTimeout fires at once (after 1 ms) past 2^31-1 ms, about 24.8 days. */
export const MAX_TIMER_MS = 24 * 86_400_000;

/** The longest span that is compared with the clock and never waited for (a rule's for, a repeat interval): a year. */
export const MAX_SPAN_MS = 365 * 86_400_000;

export interface DurationBounds {
  /** Whether 0 is refused (poll intervals, timeouts, windows). */
  positive?: boolean;
  /**
   * The longest value its use allows, required so that no key is unbounded: MAX_TIMER_MS for
   * anything that arms a timer; more only where the value is compared with the clock.
   */
  max: number;
}

function durationFrom(value: unknown, ctx: z.RefinementCtx, { positive = false, max }: DurationBounds): number {
  if (value === undefined) return missing(ctx, z.ZodParsedType.string);
  let ms: number | undefined;
  if (typeof value === 'string') ms = parseDuration(value);
  else if (value === 0) ms = 0;
  if (ms === undefined) {
    const hint = typeof value === 'number' ? `: a number needs a unit ${DURATION_HINT}` : ` ${DURATION_HINT}`;
    const what = typeof value === 'string' || typeof value === 'number' ? 'invalid duration ' : 'expected a duration, got ';
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${what}${describeValue(value)}${hint}` });
    return z.NEVER;
  }
  if (positive && ms === 0) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be longer than 0s ${DURATION_HINT}` });
    return z.NEVER;
  }
  if (ms > max) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be at most ${formatDuration(max)}, got ${describeValue(value)}` });
    return z.NEVER;
  }
  return ms;
}

/**
 * `500ms`, `15s`, `5m`, `4h`, `1h30m`, `0` -> milliseconds, within `bounds`. A bare number other
 * than 0 is an error: 30 what? The one duration type of config, rules and scenarios.
 */
export function duration(bounds: DurationBounds) {
  return z.unknown().transform((value, ctx) => durationFrom(value, ctx, bounds));
}

/** A duration that arms a timer and must not be 0: a poll interval, a timeout. */
export const positiveTimer = duration({ positive: true, max: MAX_TIMER_MS });

/** A byte count: a non-negative integer, or a size string such as `32MiB` -> bytes. */
export const byteSize = z.unknown().transform((value, ctx): number => {
  if (value === undefined) return missing(ctx, z.ZodParsedType.number);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  const bytes = typeof value === 'string' ? parseByteSize(value) : undefined;
  if (bytes !== undefined) return bytes;
  const what = typeof value === 'string' || typeof value === 'number' ? 'invalid size ' : 'expected a size, got ';
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${what}${describeValue(value)} ${SIZE_HINT}` });
  return z.NEVER;
});

const PATTERN_HINT = '(a glob like USD*, alternatives like USDT|USDC, or a regular expression /.../; ! in front negates)';

/** A label pattern (src/lib/pattern.ts), checked as it will run: on RE2. The one check of config and rules. */
export const pattern = z.string().superRefine((text, ctx) => {
  const problem = patternProblem(text);
  if (problem !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: text.replace(/^!/, '') === '' ? `${problem} ${PATTERN_HINT}` : problem });
});

/** A `HOST:PORT` listen address, kept as written (parse it with `parseHostPort`). */
export const hostPort = z.string().refine((text) => parseHostPort(text) !== undefined, (text) => ({
  message: `invalid listen address ${describeValue(text)} (use HOST:PORT, e.g. 127.0.0.1:9464 or :9464)`,
}));

/** A URL with one of the given schemes. Credentials are masked in the message: it may reach a log. */
export function urlWithScheme(schemes: readonly string[], example: string) {
  return z.string().superRefine((text, ctx) => {
    let protocol: string;
    try {
      protocol = new URL(text).protocol;
    } catch {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `invalid URL ${describeValue(redactUrlCredentials(text))} (use ${example})`,
      });
      return;
    }
    const scheme = protocol.replace(/:$/, '');
    if (!schemes.includes(scheme)) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `unsupported URL scheme "${scheme}" (use ${schemes.join(' or ')}, e.g. ${example})`,
      });
    }
  });
}

export const httpUrl = urlWithScheme(['http', 'https'], 'http://HOST:PORT/PATH');

/** RFC 9110 token: anything else could smuggle a second header or break the request line. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers to send (an exchange's, a receiver's). Values may be secrets: messages never quote them. */
export const headerMap = z.record(
  z.string().refine((v) => HEADER_NAME.test(v), (v) => ({
    message: `invalid header name ${describeValue(v)}`,
    params: { at: 'key' },
  })),
  z.string().refine((v) => !/[\r\n]/.test(v), { message: 'header value must not contain line breaks' }),
);

/**
 * An optional key with a default. Unlike zod's `.default()`, the default is an output value, so
 * defaults can be named constants in milliseconds or bytes rather than strings to re-parse.
 */
export function withDefault<T extends z.ZodTypeAny>(schema: T, value: z.output<T>) {
  return schema.optional().transform((v: z.output<T> | undefined): z.output<T> => (v === undefined ? value : v));
}
