/**
 * The wire format of the Spot Market Data Interface V3 (spec sections 2, 4 and 8): the dialect
 * `spot-v3`, whose field names are the Snapshot model's own. Shared by this dialect and the
 * reference exchange (`simulator/`): the one place that names its paths, weights and fields.
 */
import type { Endpoint } from '../../../snapshot/model';
import { fieldsOf, keysOf, NETWORK_FIELDS, TICKER_FIELDS, type CoinRecord, type FieldSpec, type NetworkRecord, type TickerRecord } from '../../../snapshot/fields';

export type { Endpoint };

export const API_PREFIX = '/api/v3';
export const COINS_PATH = `${API_PREFIX}/coins`;
export const TICKER_PATH = `${API_PREFIX}/market/ticker/24hr`;

/** Request weight per IP, spec section 8. */
export const WEIGHTS = { coins: 5, tickers: 2 } as const satisfies Record<Endpoint, number>;

/** Header the reference exchange sets on every answer (DESIGN.md section 5). */
export const USED_WEIGHT_HEADER = 'x-sw-used-weight';

/** The fields the spec gives as "null or String" (section 2.2); every other field is always sent. */
type SpecNullable = 'withdrawInternalMin' | 'depositDesc' | 'withdrawDesc';

/** Each field as the spec types it: the model's field, never null unless the spec says so. */
type Wire<R, Nullable extends string = never> = { [K in keyof R]: K extends Nullable ? R[K] : Exclude<R[K], null> };

/**
 * A network object as the spec names it (one field per line of NETWORK_FIELDS). Decimals are
 * the exact text received (`withdrawIntegerMultiple` arrives as a JSON number and is kept as
 * its source text).
 */
export type WireNetwork = Wire<NetworkRecord, SpecNullable>;

export type WireCoin = Wire<Omit<CoinRecord, 'networkList'>> & { networkList: WireNetwork[] };

export type WireTicker = Wire<TickerRecord>;

/** A list of names that is never empty (what z.enum takes). */
type Names<K> = readonly [K, ...K[]];

/** The fields of a network object, in the order of spec section 2.2. */
export const NETWORK_FIELD_NAMES = keysOf(NETWORK_FIELDS) as unknown as Names<keyof WireNetwork>;

/** The fields of a ticker object, in the order of spec section 2.3. */
export const TICKER_FIELD_NAMES = keysOf(TICKER_FIELDS) as unknown as Names<keyof WireTicker>;

function decimalKeys(list: Record<string, FieldSpec>): string[] {
  return fieldsOf(list).filter(([, f]) => f.type === 'decimal').map(([k]) => k);
}

/** Keys whose values are decimals, in a network (spec section 2.2) and in a ticker (2.3). */
export const NETWORK_DECIMAL_KEYS = decimalKeys(NETWORK_FIELDS);
export const TICKER_DECIMAL_KEYS = decimalKeys(TICKER_FIELDS);
export const DECIMAL_KEYS = [...NETWORK_DECIMAL_KEYS, ...TICKER_DECIMAL_KEYS];

/** Error body of the reference exchange and of real deployments: `code` may be a number or a string. */
export interface WireError {
  code: number | string;
  msg: string;
}

/** Error codes the reference exchange uses (DESIGN.md section 5). */
export const ERROR_CODES = {
  illegalChars: -1100,
  malformed: -1102,
  tooMuchWeight: -1003,
  invalidSymbol: -1121,
  badCombination: -1128,
  unknownPath: -1000,
} as const;
