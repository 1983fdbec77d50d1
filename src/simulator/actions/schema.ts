/**
 * Actions: the one vocabulary for changing the reference exchange, shared by scenario steps
 * (plus `at`) and the admin API. Our own keys are snake_case; wire field names keep the
 * spelling of the spec (`withdrawEnable`, `depositDesc`).
 */
import { z } from 'zod';
import { TICKER_FIELD_NAMES } from '../../exchange/dialects/spot-v3/wire';
import { faultSchema, FAULT_ENDPOINTS } from './faults-schema';
import { code, decimal, duration, integerMultiple, jsonValue, networkId, positiveDecimal, text } from './fields';
import { NOTICE_ACTION_SCHEMAS } from './notices-schema';

/** Every settable field of a network object (spec 2.2), except `network` and `coin`. */
const networkFields = {
  name: text,
  isDefault: z.literal(true, { errorMap: () => ({ message: 'can only be true: set it on another network to move the default' }) }),
  depositEnable: z.boolean(),
  withdrawEnable: z.boolean(),
  withdrawFee: decimal,
  withdrawMin: decimal,
  withdrawInternalMin: decimal.nullable(),
  withdrawIntegerMultiple: integerMultiple,
  minConfirm: z.number().int().min(0),
  withdrawTag: z.boolean(),
  depositDust: decimal,
  contractAddress: text,
  contractAddressUrl: text,
  depositDesc: text.nullable(),
  withdrawDesc: text.nullable(),
};

export const networkPatch = z.object(networkFields).partial().strict();
export type NetworkPatch = z.output<typeof networkPatch>;

const newNetwork = z.object({ network: networkId, ...networkFields }).partial().required({ network: true }).strict();

export const ACTION_SCHEMAS = {
  set_network: z.object({ coin: code, network: networkId, set: networkPatch }).strict(),
  set_coin: z.object({ coin: code, set: z.object({ name: text }).strict() }).strict(),
  list_coin: z.object({ coin: code, name: text, networks: z.array(newNetwork).min(1, 'must list at least one network') }).strict()
    .superRefine((value, ctx) => {
      const ids = value.networks.map((n) => n.network);
      ids.forEach((id, i) => {
        if (ids.indexOf(id) !== i) ctx.addIssue({ code: 'custom', path: ['networks', i, 'network'], message: `network "${id}" is listed twice` });
      });
      if (value.networks.filter((n) => n.isDefault === true).length > 1) {
        ctx.addIssue({ code: 'custom', path: ['networks'], message: 'at most one network can be the default' });
      }
    }),
  delist_coin: z.object({ coin: code }).strict(),
  add_network: z.object({ coin: code, network: networkId, set: networkPatch.optional() }).strict(),
  remove_network: z.object({ coin: code, network: networkId }).strict(),
  list_symbol: z.object({ symbol: code, price: positiveDecimal, base: code.optional(), quote: code.optional() }).strict(),
  delist_symbol: z.object({ symbol: code }).strict(),
  move_price: z.object({
    symbol: code,
    percent: z.number().gt(-100).lte(100_000),
    over: duration,
  }).strict(),
  set_ticker: z.object({
    symbol: code,
    set: z.record(z.enum(TICKER_FIELD_NAMES), jsonValue).optional(),
    clear: z.boolean().optional(),
  }).strict().refine((v) => v.set !== undefined || v.clear === true, 'give `set` (fields to force) or `clear: true`'),
  fault: faultSchema,
  clear_faults: z.object({ endpoint: z.enum(FAULT_ENDPOINTS).optional() }).strict(),
  ...NOTICE_ACTION_SCHEMAS,
} as const;

export type ActionName = keyof typeof ACTION_SCHEMAS;
export const ACTION_NAMES = Object.keys(ACTION_SCHEMAS) as ActionName[];

/** A validated action: its name plus the output of its schema. */
export type Action = { [K in ActionName]: { action: K } & z.output<(typeof ACTION_SCHEMAS)[K]> }[ActionName];
/** What a caller writes (defaults not yet filled, durations as text). */
export type ActionInput = { [K in ActionName]: { action: K } & z.input<(typeof ACTION_SCHEMAS)[K]> }[ActionName];
