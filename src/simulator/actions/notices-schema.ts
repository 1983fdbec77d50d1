/**
 * Actions on notices (notices.md 5): schedule, start, complete, cancel and reschedule a
 * maintenance window, and publish an announcement. Times are relative to when the action
 * applies (`begins_in: 10m`) or absolute (`begins_at: 2025-01-01T13:00:00Z`).
 */
import { z } from 'zod';
import { ANNOUNCEMENT_KINDS, WINDOW_ORIGINS, WINDOW_SCOPES, WINDOW_STATUSES } from '../market/notices';
import { code, duration, text } from './fields';

/** A window's id: what Bybit and a Statuspage send as `id`, and what the other actions name it by. */
export const windowId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1 to 64 letters, digits, ".", "_" or "-"');

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 time with its offset (`2025-01-01T13:00:00Z`), as epoch milliseconds. */
export const instant = z.string().transform((value, ctx) => {
  const ms = RFC3339.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: 'custom', message: `must be an RFC 3339 time such as "2025-01-01T13:00:00Z" (got ${JSON.stringify(value)})` });
    return z.NEVER;
  }
  return ms;
});

const title = text.min(1, 'must not be empty');
const coins = z.array(code).max(100, 'must list at most 100 coins');

/** When a window begins: `begins_in` after the action, or `begins_at`; neither: at once. */
const begins = { begins_in: duration.optional(), begins_at: instant.optional() };
function oneBegin(v: { begins_in?: number | undefined; begins_at?: number | undefined }, ctx: z.RefinementCtx): void {
  if (v.begins_in !== undefined && v.begins_at !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['begins_at'], message: 'give begins_in or begins_at, not both' });
  }
}

const byId = z.object({ id: windowId }).strict();

export const NOTICE_ACTION_SCHEMAS = {
  schedule_maintenance: z.object({
    id: windowId,
    title,
    ...begins,
    /** How long it lasts; none: its end is unknown until it is completed. */
    duration: duration.optional(),
    scope: z.enum(WINDOW_SCOPES).default('exchange'),
    origin: z.enum(WINDOW_ORIGINS).default('planned'),
    /** What the exchange is while the window is ongoing (scope exchange or trading only). */
    status: z.enum(WINDOW_STATUSES).default('maintenance'),
    coins: coins.default([]),
    url: text.optional(),
  }).strict().superRefine(oneBegin),
  start_maintenance: byId,
  complete_maintenance: byId,
  cancel_maintenance: byId,
  reschedule_maintenance: z.object({
    id: windowId,
    ...begins,
    /** The new length; none: the window keeps its length (or its unknown end). */
    duration: duration.optional(),
  }).strict().superRefine((v, ctx) => {
    oneBegin(v, ctx);
    if (v.begins_in === undefined && v.begins_at === undefined) ctx.addIssue({ code: 'custom', path: [], message: 'give the new begin: begins_in or begins_at' });
  }),
  announce: z.object({
    /** Announcing an id again replaces that announcement (a looping scenario publishes it once). */
    id: z.number().int().min(1).max(2 ** 31 - 1).optional(),
    kind: z.enum(ANNOUNCEMENT_KINDS),
    /** None: a title naming the coins, as exchanges write them (`Will Delist Dogecoin (DOGE)`). */
    title: title.optional(),
    coins: coins.default([]),
    url: text.optional(),
  }).strict().refine((v) => v.title !== undefined || v.coins.length > 0, 'give a `title`, or `coins` to name in one'),
} as const;
