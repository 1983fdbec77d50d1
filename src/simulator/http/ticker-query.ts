/**
 * The `symbol` / `symbols` parameters of the ticker endpoint, with the error codes of
 * DESIGN.md section 5. `symbols` is a comma list (`BTCUSDT,ETHUSDT`) or a JSON array
 * (`["BTCUSDT","ETHUSDT"]`).
 */
import { ERROR_CODES } from '../../exchange/dialects/spot-v3/wire';

export type TickerQuery =
  | { kind: 'one'; symbol: string }
  | { kind: 'some'; symbols: string[] }
  | { kind: 'all' }
  | { kind: 'error'; code: number; msg: string };

const LEGAL = /^[A-Z0-9\-_.]{1,20}$/;
const LEGAL_TEXT = '^[A-Z0-9-_.]{1,20}$';

export const TICKER_MESSAGES = {
  badCombination: 'Combination of optional parameters invalid.',
  invalidSymbol: 'Invalid symbol.',
  emptySymbol: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed.",
  illegal: (param: string) => `Illegal characters found in parameter '${param}'; legal range is '${LEGAL_TEXT}'.`,
  malformed: (why: string) => `Parameter 'symbols' is malformed: ${why}.`,
} as const;

function malformed(why: string): TickerQuery {
  return { kind: 'error', code: ERROR_CODES.malformed, msg: TICKER_MESSAGES.malformed(why) };
}

function illegal(param: string): TickerQuery {
  return { kind: 'error', code: ERROR_CODES.illegalChars, msg: TICKER_MESSAGES.illegal(param) };
}

function splitSymbols(raw: string): string[] | undefined {
  if (!raw.startsWith('[')) return raw.split(',');
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) && parsed.every((s) => typeof s === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function parseTickerQuery(params: URLSearchParams, cap: number): TickerQuery {
  const symbol = params.getAll('symbol');
  const symbols = params.getAll('symbols');
  if (symbol.length > 0 && symbols.length > 0) return { kind: 'error', code: ERROR_CODES.badCombination, msg: TICKER_MESSAGES.badCombination };
  if (symbol.length > 1) return { kind: 'error', code: ERROR_CODES.malformed, msg: TICKER_MESSAGES.emptySymbol };
  const one = symbol[0];
  if (one !== undefined) {
    if (one === '') return { kind: 'error', code: ERROR_CODES.malformed, msg: TICKER_MESSAGES.emptySymbol };
    return LEGAL.test(one) ? { kind: 'one', symbol: one } : illegal('symbol');
  }
  if (symbols.length === 0) return { kind: 'all' };
  if (symbols.length > 1) return malformed('sent more than once');
  const list = splitSymbols(symbols[0] as string);
  if (list === undefined) return malformed('not a JSON array of strings');
  if (list.length === 0 || (list.length === 1 && list[0] === '')) return malformed('empty list');
  if (list.length > cap) return malformed(`more than ${cap} symbols`);
  if (list.includes('')) return malformed('empty entry');
  if (!list.every((s) => LEGAL.test(s))) return illegal('symbols');
  const dup = list.find((s, i) => list.indexOf(s) !== i);
  if (dup !== undefined) return malformed(`duplicate symbol '${dup}'`);
  return { kind: 'some', symbols: list };
}
