/**
 * One field list per record type of the Snapshot model. Each line says what a field holds (its
 * type in the model, and what it is when the exchange sends nothing) and what a change of it
 * is (the Change it raises, or why it raises none). From these lists come the record types,
 * their equality (merge.ts), the diff (diff.ts), and, in the spot-v3 dialect whose wire names
 * are the model's, the wire types and validation (its readers loop over the lists). A new field
 * is one line here plus its decode in each other dialect (the compiler asks for it), and
 * cannot be half-added: test/snapshot/fields.test.ts checks every field through each of them.
 */
import type { ChangeKind } from './changes';

/**
 * What a field holds. `key`: a non-empty string that keys the record; `parent`: the key of the
 * record it belongs to (a network's coin); `networks`: a coin's list of network records.
 */
export type FieldType = 'key' | 'parent' | 'text' | 'flag' | 'decimal' | 'int' | 'networks';

/**
 * What the field is when the exchange sends nothing: null; a malformed record (`required`);
 * false; or, for a coin's flag, true iff every network's flag `every` is (`depositAllEnable`
 * from the networks' `depositEnable`).
 */
export type Absent = 'null' | 'required' | 'false' | { readonly every: string };

/**
 * How two values of a field compare for a `value` change: `exact`; `decimal`, by value
 * (`0.0010` is `1E-3`: a change of notation alone is no change); `empty-is-null` (`""` and
 * null are both "none"); `null-is-false`.
 */
export type Sameness = 'exact' | 'decimal' | 'empty-is-null' | 'null-is-false';

/** What a change of the field is in the diff. */
export type FieldChange =
  /** The record's key: another key is another record (listed, added, removed). */
  | { readonly kind: 'identity' }
  /** A flag raising one change when it turns on and another when it turns off. */
  | { readonly kind: 'flip'; readonly on: ChangeKind; readonly off: ChangeKind }
  /** A message, "none" when null or blank: set, changed and cleared are changes of their own. */
  | { readonly kind: 'message'; readonly set: ChangeKind; readonly changed: ChangeKind; readonly cleared: ChangeKind }
  | { readonly kind: 'value'; readonly change: ChangeKind; readonly same: Sameness }
  /** A coin's networks, each diffed on its own (added, removed, changed), and its default network. */
  | { readonly kind: 'networks' }
  /** No change of its own (the record is still replaced, stored and shown): `why` says why. */
  | { readonly kind: 'silent'; readonly why: string };

export interface FieldSpec {
  readonly type: FieldType;
  readonly absent: Absent;
  readonly change: FieldChange;
}

function silent(why: string): FieldChange {
  return { kind: 'silent', why };
}

function flip(on: ChangeKind, off: ChangeKind): FieldChange {
  return { kind: 'flip', on, off };
}

function message(direction: 'deposit' | 'withdraw'): FieldChange {
  return { kind: 'message', set: `${direction}_desc_set`, changed: `${direction}_desc_changed`, cleared: `${direction}_desc_cleared` };
}

function value(change: ChangeKind, same: Sameness): FieldChange {
  return { kind: 'value', change, same };
}

function key() {
  return { type: 'key', absent: 'required', change: { kind: 'identity' } } as const;
}

function parent() {
  return { type: 'parent', absent: 'required', change: silent('repeats the parent coin, which keys the network') } as const;
}

function text(change: FieldChange) {
  return { type: 'text', absent: 'null', change } as const;
}

function flag<const A extends 'null' | 'required' | 'false'>(absent: A, change: FieldChange) {
  return { type: 'flag', absent, change } as const;
}

function decimal(change: FieldChange) {
  return { type: 'decimal', absent: 'null', change } as const;
}

function requiredDecimal(change: FieldChange) {
  return { type: 'decimal', absent: 'required', change } as const;
}

function int(change: FieldChange) {
  return { type: 'int', absent: 'null', change } as const;
}

/**
 * Spec section 2.2, in its order (the order of the wire, of `once --json` and of the stored state).
 *
 * Unknown is never closed, per network (issue 14; decided: carried forward, not a third value).
 * `depositEnable` and `withdrawEnable` are booleans and always hold a known value: a network
 * whose flag an answer leaves out (or sends as a status the dialect does not document) is set
 * aside on its own, and the merge keeps its last known record (merge.ts keepNetworks) while the
 * coin's other networks update; a network never known is held back until it is. A derived coin
 * flag counts such a network at its last known value (coinFlag in
 * exchange/dialects/families/mapped-decode.ts). So an unknown flag raises no change, counts as
 * open or closed only as it last was known (metrics, state, outages), and the next known value
 * is compared with the last known one: true -> unknown -> false is one `withdraw_disabled`,
 * true -> unknown -> true none. A `boolean | null`
 * here was the other way: it would have reached every reader of the flags (rules, metrics,
 * state views, outages, the stored rows, the transfer routes) and still needed the last known
 * value to compare a later one with. `isDefault` is null where an answer does not say (only
 * spot-v3, binance, okx and gate do; dialects.md): it raises nothing of its own, and a coin
 * with no network known as its default has none (default_network_changed compares those).
 */
export const NETWORK_FIELDS = {
  network: key(),
  coin: parent(),
  name: text(silent('a display name')),
  isDefault: flag('null', silent('the coin raises default_network_changed')),
  depositEnable: flag('required', flip('deposit_enabled', 'deposit_disabled')),
  withdrawEnable: flag('required', flip('withdraw_enabled', 'withdraw_disabled')),
  withdrawFee: decimal(value('withdraw_fee_changed', 'decimal')),
  withdrawMin: decimal(value('withdraw_min_changed', 'decimal')),
  withdrawInternalMin: decimal(silent('not described by the spec beyond its name')),
  withdrawIntegerMultiple: decimal(silent('a precision, not a condition of the network')),
  minConfirm: int(value('min_confirm_changed', 'exact')),
  withdrawTag: flag('null', value('withdraw_tag_changed', 'null-is-false')),
  depositDust: decimal(silent('a precision, not a condition of the network')),
  contractAddress: text(value('contract_address_changed', 'empty-is-null')),
  contractAddressUrl: text(silent('an explorer link')),
  depositDesc: text(message('deposit')),
  withdrawDesc: text(message('withdraw')),
} as const satisfies Record<string, FieldSpec>;

/** A coin's flag that holds when every one of its networks' `of` does, unless the exchange says. */
function allNetworks<const K extends keyof NetworkRecord>(of: K, change: FieldChange) {
  return { type: 'flag', absent: { every: of }, change } as const;
}

/** Spec section 2.1, in its order. */
export const COIN_FIELDS = {
  coin: key(),
  name: text(silent('a display name')),
  depositAllEnable: allNetworks('depositEnable', flip('deposit_all_enabled', 'deposit_all_disabled')),
  withdrawAllEnable: allNetworks('withdrawEnable', flip('withdraw_all_enabled', 'withdraw_all_disabled')),
  networkList: { type: 'networks', absent: 'required', change: { kind: 'networks' } },
} as const satisfies Record<string, FieldSpec>;

const TICKER_VALUE = silent('ticker values feed the rules (levels, moves, staleness), not the change list');

/** Spec section 2.3, in its order. */
export const TICKER_FIELDS = {
  symbol: key(),
  priceChange: decimal(TICKER_VALUE),
  priceChangePercent: decimal(TICKER_VALUE),
  lastPrice: requiredDecimal(TICKER_VALUE),
  bidPrice: decimal(TICKER_VALUE),
  bidQty: decimal(TICKER_VALUE),
  askPrice: decimal(TICKER_VALUE),
  askQty: decimal(TICKER_VALUE),
  openPrice: decimal(TICKER_VALUE),
  highPrice: decimal(TICKER_VALUE),
  lowPrice: decimal(TICKER_VALUE),
  volume: decimal(TICKER_VALUE),
  quoteVolume: decimal(TICKER_VALUE),
  openTime: int(TICKER_VALUE),
  closeTime: int(TICKER_VALUE),
  count: int(TICKER_VALUE),
} as const satisfies Record<string, FieldSpec>;

type BaseValue<T extends FieldType> = T extends 'flag' ? boolean : T extends 'int' ? number : T extends 'networks' ? NetworkRecord[] : string;

/** A field's type in the model: its base type, or null too where an absent value is null. */
export type ValueOf<F extends FieldSpec> = BaseValue<F['type']> | (F['absent'] extends 'null' ? null : never);

/** The record a field list describes. */
export type RecordOf<L extends Record<string, FieldSpec>> = { -readonly [K in keyof L]: ValueOf<L[K]> };

export type NetworkRecord = RecordOf<typeof NETWORK_FIELDS>;
export type CoinRecord = RecordOf<typeof COIN_FIELDS>;
export type TickerRecord = RecordOf<typeof TICKER_FIELDS>;

/** The fields of a list, in its order. */
export function fieldsOf<L extends Record<string, FieldSpec>>(list: L): (readonly [keyof L & string, FieldSpec])[] {
  return Object.entries(list) as [keyof L & string, FieldSpec][];
}

/** The names of a list's fields, in its order. */
export function keysOf<L extends Record<string, FieldSpec>>(list: L): (keyof L & string)[] {
  return Object.keys(list) as (keyof L & string)[];
}
