/** Field schemas shared by actions and faults; messages say what to write, not just what failed. */
import { z } from 'zod';
import { duration as durationSchema, MAX_TIMER_MS } from '../../lib/schema-types';
import { isDecimalText, isJsonNumberText } from '../market/decimal';
import type { IntegerMultiple, JsonValue } from '../market/model';

/** Coin symbols and pair symbols: the characters real deployments use. */
export const code = z.string().regex(/^[A-Z0-9]{1,20}$/, 'must be 1 to 20 uppercase letters or digits');

export const networkId = z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

/** Free text (names, status messages): hostile content allowed on purpose, size capped. */
export const text = z.string().max(100_000, 'must be at most 100,000 characters');

/** A decimal string; a number is accepted where it prints as a plain decimal. */
export const decimal = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const s = typeof value === 'number' ? String(value) : value;
  if (!isDecimalText(s)) ctx.addIssue({ code: 'custom', message: `must be a non-negative decimal string such as "0.0005" (got ${JSON.stringify(value)})` });
  return s;
});

export const positiveDecimal = decimal.refine((s) => Number(s) > 0, 'must be greater than zero');

/** `"1E-8"`: emitted as a JSON number with exactly that text; `{ string: "1" }`: emitted as a JSON string. */
export const integerMultiple = z.unknown().transform((value, ctx): IntegerMultiple => {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const inner = (value as Record<string, unknown>).string;
    if (keys.length === 1 && typeof inner === 'string') return { text: inner, asString: true };
  } else {
    const s = typeof value === 'number' ? String(value) : value;
    if (typeof s === 'string' && isJsonNumberText(s)) return { text: s, asString: false };
  }
  ctx.addIssue({
    code: 'custom',
    message: `must be JSON number text such as "1E-8" or "0.01", or { string: "1" } to send a JSON string (got ${JSON.stringify(value)})`,
  });
  return z.NEVER;
});

/** `500ms`, `15s`, `5m`, `4h`, `1h30m`; a bare 0 is allowed. The config's duration type, bounded as a timer. */
export const duration = durationSchema({ max: MAX_TIMER_MS });

export const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(jsonValue)]),
);
