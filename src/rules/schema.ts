import { z } from 'zod';
import { parseDuration } from '../lib/duration';
import { duration, MAX_SPAN_MS, pattern } from '../lib/schema-types';
import { CHAIN_NAME, CHAIN_NAME_MESSAGE } from '../lib/chain-name';
import { CHANGE_KINDS } from '../snapshot/changes';
import { ANNOUNCEMENT_KINDS, STATUS_STATES } from '../notices/model';
import { STATES, TICKER_MEASURES } from './model';

/** Labels a rule's `match` may test. */
const MATCH_LABELS = ['exchange', 'coin', 'network', 'chain', 'symbol', 'kind'] as const;

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

const DAY_MS = 86_400_000;
/** for, keep_firing_for, repeat_interval and stale_for are compared with the clock, never waited for. */
const span = duration({ max: MAX_SPAN_MS });
const positiveSpan = duration({ positive: true, max: MAX_SPAN_MS });
/** A move_percent window: samples are kept (about 120 per window, in memory and in the store) this long. */
const moveWindow = duration({ positive: true, max: 30 * DAY_MS });

/** A threshold: a number, or for stale_for a duration (`10m`), read as seconds. */
const threshold = z.union([
  z.number(),
  z.string().transform((text, ctx) => {
    const parsed = span.safeParse(text);
    if (!parsed.success) {
      const tooLong = parseDuration(text) !== undefined ? parsed.error.issues[0]?.message : undefined;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: tooLong ?? `expected a number or a duration, got "${text}"` });
      return z.NEVER;
    }
    return parsed.data / 1000;
  }),
]);

/** One value or a list of them, read as a list (each wrong item named where it stands). */
function oneOrList<T extends string>(values: readonly [T, ...T[]]) {
  return z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.enum(values)).min(1));
}

const ruleSchema = z
  .object({
    alert: z.string().regex(LABEL_NAME, 'alert names are letters, digits and _ (they become the alertname label)'),
    match: z.record(z.enum(MATCH_LABELS), pattern).optional(),
    severity: z.string().min(1).default('warning'),
    for: span.optional(),
    keep_firing_for: span.optional(),
    repeat_interval: positiveSpan.optional(),
    labels: z.record(z.string().regex(LABEL_NAME, 'label names are letters, digits and _'), z.string()).optional(),
    annotations: z.record(z.string().regex(LABEL_NAME, 'annotation names are letters, digits and _'), z.string()).optional(),
    state: z.enum(STATES).optional(),
    change: z.union([z.enum(CHANGE_KINDS), z.array(z.enum(CHANGE_KINDS)).min(1)]).optional(),
    ticker: z.enum(TICKER_MEASURES).optional(),
    window: moveWindow.optional(),
    above: threshold.optional(),
    below: threshold.optional(),
    hysteresis: z.number().nonnegative().optional(),
    /** Notices (notices.md section 4): a window in this state, `within` (scheduled only) of its begin. */
    maintenance: z.enum(['scheduled', 'ongoing']).optional(),
    within: positiveSpan.optional(),
    exchange_status: oneOrList(STATUS_STATES).optional(),
    announcement: oneOrList(ANNOUNCEMENT_KINDS).optional(),
    /** A closure rule that holds only while no notice explains the closure. */
    unannounced: z.boolean().optional(),
    /** A route across two exchanges (DESIGN.md section 4): `{ coin: USDT, from: binance, to: weex, chains: [tron, bsc] }`. */
    transfer: z
      .object({
        coin: z.string().min(1),
        from: z.string().min(1),
        to: z.string().min(1),
        chains: z.array(z.string().regex(CHAIN_NAME, CHAIN_NAME_MESSAGE)).min(1).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    const conditions = [r.state, r.change, r.ticker, r.transfer, r.maintenance, r.exchange_status, r.announcement].filter((c) => c !== undefined).length;
    if (conditions !== 1) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `a rule needs exactly one condition: state, change, ticker, transfer, maintenance, exchange_status or announcement (found ${conditions})` });
      return;
    }
    if (r.within !== undefined && r.maintenance !== 'scheduled') ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['within'], message: 'within applies only to maintenance: scheduled' });
    if (r.unannounced !== undefined && r.state !== 'deposit_disabled' && r.state !== 'withdraw_disabled') {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['unannounced'], message: 'unannounced applies only to closure rules (state: deposit_disabled or withdraw_disabled)' });
    }
    if ((r.maintenance !== undefined || r.exchange_status !== undefined) && r.match !== undefined && Object.keys(r.match).some((k) => k !== 'exchange')) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['match'], message: 'maintenance and exchange_status rules match only exchange' });
    }
    if (r.transfer !== undefined) {
      if (r.transfer.from === r.transfer.to) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['transfer', 'to'], message: 'to must name another exchange than from' });
      // The route is one alert per rule: its labels are exchange (= from), to_exchange and coin.
      if (r.match !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['match'], message: 'match does not apply to transfer rules (the rule names its coin and exchanges)' });
    }
    const tickerOnly = (['window', 'above', 'below', 'hysteresis'] as const).filter((k) => r[k] !== undefined);
    if (r.ticker === undefined) {
      for (const k of tickerOnly) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [k], message: `${k} applies only to ticker rules` });
      return;
    }
    if (r.ticker === 'missing') return;
    if (r.above === undefined && r.below === undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `ticker: ${r.ticker} needs above, below or both` });
    if (r.ticker === 'move_percent' && r.window === undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'ticker: move_percent needs a window (e.g. window: 5m)' });
    if (r.ticker !== 'move_percent' && r.window !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['window'], message: 'window applies only to move_percent' });
    if (r.above !== undefined && r.below !== undefined && r.below >= r.above) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['below'], message: 'below must be less than above' });
  });

export const rulesFileSchema = z.object({ rules: z.array(ruleSchema).default([]) }).strict();

export type RuleDefinition = z.output<typeof ruleSchema>;
