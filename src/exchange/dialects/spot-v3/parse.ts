/**
 * The spec's answers as JSON, decimals kept as their exact text: `withdrawIntegerMultiple` is a
 * JSON number that may use exponent notation (`1E-8`), and a deployment may send any decimal
 * bare. The decimal keys are those of the field lists (snapshot/fields.ts).
 */
import type { Endpoint } from '../../../snapshot/model';
import { fieldsOf, NETWORK_FIELDS, TICKER_FIELDS, type FieldSpec } from '../../../snapshot/fields';
import { exactDecimalJson } from '../../decimal-text';

function decimalKeys(list: Record<string, FieldSpec>): string[] {
  return fieldsOf(list).filter(([, f]) => f.type === 'decimal').map(([k]) => k);
}

/** Keys whose values are decimals, in a network (spec section 2.2) and in a ticker (2.3). */
export const NETWORK_DECIMAL_KEYS = decimalKeys(NETWORK_FIELDS);
export const TICKER_DECIMAL_KEYS = decimalKeys(TICKER_FIELDS);
export const DECIMAL_KEYS = [...NETWORK_DECIMAL_KEYS, ...TICKER_DECIMAL_KEYS];

/**
 * Per answer, only its own keys; `any`: both. The coin list always has a bare number under a
 * decimal key (`withdrawIntegerMultiple`, spec section 2.2): the pre-pass at once; the spec's
 * tickers send every decimal as a string.
 */
const JSON_OF = { coins: exactDecimalJson(NETWORK_DECIMAL_KEYS, 'usual'), tickers: exactDecimalJson(TICKER_DECIMAL_KEYS), any: exactDecimalJson(DECIMAL_KEYS) };

/** JSON.parse, with the numbers under the answer's decimal keys turned into strings holding their exact text. */
export function parseJsonKeepingDecimals(text: string, answer: Endpoint | 'any' = 'any'): unknown {
  return JSON_OF[answer](text);
}
