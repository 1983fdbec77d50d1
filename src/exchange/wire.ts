/**
 * The wire format of the Spot Market Data Interface V3 (spec sections 2, 4 and 8).
 * Shared by the client (`exchange/`) and the reference exchange (`simulator/`): the one
 * place that names paths, weights and field names.
 */

export const API_PREFIX = '/api/v3';
export const COINS_PATH = `${API_PREFIX}/coins`;
export const TICKER_PATH = `${API_PREFIX}/market/ticker/24hr`;

/** Request weight per IP, spec section 8. */
export const WEIGHTS = { coins: 5, tickers: 2 } as const;
export type Endpoint = keyof typeof WEIGHTS;

/** Header the reference exchange sets on every answer (DESIGN.md section 5). */
export const USED_WEIGHT_HEADER = 'x-sw-used-weight';

/**
 * A network object as the spec names it. Decimals are the exact text received
 * (`withdrawIntegerMultiple` arrives as a JSON number and is kept as its source text).
 */
export interface WireNetwork {
  network: string;
  coin: string;
  name: string;
  isDefault: boolean;
  depositEnable: boolean;
  withdrawEnable: boolean;
  withdrawFee: string;
  withdrawMin: string;
  withdrawInternalMin: string | null;
  withdrawIntegerMultiple: string;
  minConfirm: number;
  withdrawTag: boolean;
  depositDust: string;
  contractAddress: string;
  contractAddressUrl: string;
  depositDesc: string | null;
  withdrawDesc: string | null;
}

export interface WireCoin {
  coin: string;
  name: string;
  depositAllEnable: boolean;
  withdrawAllEnable: boolean;
  networkList: WireNetwork[];
}

export interface WireTicker {
  symbol: string;
  priceChange: string;
  priceChangePercent: string;
  lastPrice: string;
  bidPrice: string;
  bidQty: string;
  askPrice: string;
  askQty: string;
  openPrice: string;
  highPrice: string;
  lowPrice: string;
  volume: string;
  quoteVolume: string;
  openTime: number;
  closeTime: number;
  count: number;
}

/** Field order of a network object, as in spec section 2.2. */
export const NETWORK_FIELDS = [
  'network', 'coin', 'name', 'isDefault', 'depositEnable', 'withdrawEnable', 'withdrawFee',
  'withdrawMin', 'withdrawInternalMin', 'withdrawIntegerMultiple', 'minConfirm', 'withdrawTag',
  'depositDust', 'contractAddress', 'contractAddressUrl', 'depositDesc', 'withdrawDesc',
] as const satisfies readonly (keyof WireNetwork)[];

/** Field order of a ticker object, as in spec section 2.3. */
export const TICKER_FIELDS = [
  'symbol', 'priceChange', 'priceChangePercent', 'lastPrice', 'bidPrice', 'bidQty', 'askPrice',
  'askQty', 'openPrice', 'highPrice', 'lowPrice', 'volume', 'quoteVolume', 'openTime',
  'closeTime', 'count',
] as const satisfies readonly (keyof WireTicker)[];

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
