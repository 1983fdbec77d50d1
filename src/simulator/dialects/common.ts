/** Helpers the dialect renderers share: network ids per exchange, decimal text, HMAC checks. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SimNetwork } from '../market/model';
import type { SimulatorDialect } from './names';

type Dialect = Exclude<SimulatorDialect, 'spot-v3'>;

/**
 * The model's network ids (spot-v3's, see catalog/) as each exchange names the same chain,
 * from the alias table of dialects.md section 3 (so a chain label matches across exchanges).
 * A network not listed keeps the model's id.
 */
const NETWORK_IDS: Record<string, Partial<Record<Dialect, string>>> = {
  'Ethereum(ERC20)': { binance: 'ETH', mexc: 'ETH', bitget: 'ERC20', kucoin: 'eth', gate: 'ETH', htx: 'usdterc20', okx: 'ERC20', bybit: 'ETH' },
  ETH: { binance: 'ETH', mexc: 'ETH', bitget: 'ERC20', kucoin: 'eth', gate: 'ETH', htx: 'usdterc20', okx: 'ERC20', bybit: 'ETH' },
  'BNB Smart Chain(BEP20)': { binance: 'BSC', mexc: 'BSC', bitget: 'BEP20', kucoin: 'bsc', gate: 'BSC', htx: 'bep20usdt', okx: 'BSC', bybit: 'BSC' },
  BSC: { binance: 'BSC', mexc: 'BSC', bitget: 'BEP20', kucoin: 'bsc', gate: 'BSC', htx: 'bep20usdt', okx: 'BSC', bybit: 'BSC' },
  'Tron(TRC20)': { binance: 'TRX', mexc: 'TRX', bitget: 'TRC20', kucoin: 'trx', gate: 'TRX', htx: 'trc20usdt', okx: 'TRC20', bybit: 'TRX' },
  TRX: { binance: 'TRX', mexc: 'TRX', bitget: 'TRC20', kucoin: 'trx', gate: 'TRX', htx: 'trc20usdt', okx: 'TRC20', bybit: 'TRX' },
  SOL: { binance: 'SOL', mexc: 'Solana(SOL)', bitget: 'SOL', kucoin: 'sol', gate: 'SOL', htx: 'solusdt', okx: 'Solana', bybit: 'SOL' },
  ARBITRUM: { binance: 'ARBITRUM', mexc: 'ARB', bitget: 'ArbitrumOne', kucoin: 'arbitrum', gate: 'ARBEVM', htx: 'arc20usdt', okx: 'Arbitrum One', bybit: 'ARBI' },
  OPTIMISM: { binance: 'OPTIMISM', mexc: 'OP', bitget: 'Optimism', kucoin: 'optimism', gate: 'OPETH', htx: 'optusdt', okx: 'Optimism', bybit: 'OP' },
  'Polygon(POS)': { binance: 'MATIC', mexc: 'Polygon(MATIC)', bitget: 'Polygon', kucoin: 'matic', gate: 'MATIC', okx: 'Polygon', bybit: 'MATIC' },
  TON: { binance: 'TON', mexc: 'TONCOIN', bitget: 'TON', kucoin: 'ton', gate: 'TON', okx: 'TON', bybit: 'TON' },
  AVAXC: { binance: 'AVAXC', mexc: 'AVAX_CCHAIN', bitget: 'C-Chain', kucoin: 'avaxc', gate: 'AVAX_C', htx: 'cchainusdt', okx: 'Avalanche C-Chain', bybit: 'CAVAX' },
  BTC: { binance: 'BTC', mexc: 'Bitcoin(BTC)', bitget: 'BTC', kucoin: 'btc', gate: 'BTC', htx: 'btc', okx: 'Bitcoin', bybit: 'BTC' },
  // dialects.md section 3's bitcoin-lightning row: Binance and Bitget `LIGHTNING`, OKX `BTC-Lightning`.
  LIGHTNING: { binance: 'LIGHTNING', bitget: 'LIGHTNING', kucoin: 'btcln', okx: 'Lightning' },
  // The chains beyond dialects.md's first fifteen (issue 23), as each exchange sends them (kucoin's
  // `btcln` and `base` from its recorded answers and ccxt, the rest from ccxt's per-exchange tables).
  BASE: { binance: 'BASE', kucoin: 'base', gate: 'BASEEVM', okx: 'Base', bybit: 'BASE' },
  ADA: { binance: 'ADA', bitget: 'Cardano', kucoin: 'ada', gate: 'ADA', okx: 'Cardano', bybit: 'ADA' },
  APT: { binance: 'APT', mexc: 'APTOS', bitget: 'Aptos', kucoin: 'aptos', gate: 'APT', okx: 'Aptos', bybit: 'APTOS' },
  ATOM: { binance: 'ATOM', bitget: 'ATOM', kucoin: 'atom', okx: 'Cosmos', bybit: 'ATOM' },
  AVAX: { bitget: 'X-Chain', kucoin: 'avax', okx: 'Avalanche X-Chain', bybit: 'XAVAX' },
  BCH: { binance: 'BCH', bitget: 'BCH', kucoin: 'bch', okx: 'BitcoinCash', bybit: 'BCH' },
  DOGE: { binance: 'DOGE', bitget: 'DOGE', kucoin: 'doge', okx: 'Dogecoin', bybit: 'DOGE' },
  DOT: { bitget: 'DOT', kucoin: 'dot', gate: 'DOT', okx: 'Polkadot', bybit: 'DOT' },
  ETC: { bitget: 'ETC', kucoin: 'etc', okx: 'Ethereum Classic', bybit: 'ETC' },
  FIL: { binance: 'FIL', bitget: 'FIL', kucoin: 'fil', okx: 'Filecoin', bybit: 'FIL' },
  LTC: { binance: 'LTC', bitget: 'LTC', kucoin: 'ltc', okx: 'Litecoin', bybit: 'LTC' },
  NEAR: { binance: 'NEAR', bitget: 'NEARProtocol', kucoin: 'near', gate: 'NEAR', okx: 'NEAR', bybit: 'NEAR' },
  XLM: { binance: 'XLM', kucoin: 'xlm', gate: 'XLM', okx: 'Stellar Lumens', bybit: 'XLM' },
  XRP: { binance: 'XRP', bitget: 'XRP', kucoin: 'xrp', okx: 'Ripple', bybit: 'XRP' },
};

/**
 * The network id `dialect` gives the model's network. OKX prefixes the coin (`USDT-TRC20`,
 * `BTC-Bitcoin`): the caller adds it.
 */
export function networkId(dialect: Dialect, model: string): string {
  return NETWORK_IDS[model]?.[dialect] ?? model;
}

/**
 * Decimal places of a power of ten given as text (`"0.00000001"`, `"1E-8"`, `"1"` -> 8, 8, 0):
 * the precision fields (`withdrawPrecision`, `wdTickSz`, `minAccuracy`) that the exchanges send.
 */
export function placesOf(n: SimNetwork): number {
  const value = Number(n.withdrawIntegerMultiple.text);
  return value > 0 && value < 1 ? Math.round(-Math.log10(value)) : 0;
}

/** The multiple as plain decimal text (`1E-8` -> `0.00000001`). */
export function plainMultiple(n: SimNetwork): string {
  const places = placesOf(n);
  return places === 0 ? '1' : `0.${'0'.repeat(places - 1)}1`;
}

/** Moves the decimal point of `text` two places right: a ratio as a percentage (`"-0.001234"` -> `"-0.1234"`). */
export function ratioToPercent(text: string): string {
  const negative = text.startsWith('-');
  const [whole = '0', frac = ''] = (negative ? text.slice(1) : text).split('.');
  const padded = frac.padEnd(2, '0');
  const intPart = `${whole}${padded.slice(0, 2)}`.replace(/^0+(?=\d)/, '');
  const rest = padded.slice(2);
  const body = rest === '' ? intPart : `${intPart}.${rest}`;
  return `${negative && /[1-9]/.test(body) ? '-' : ''}${body}`;
}

/** Cut to `places` decimals (Gate's percentages carry two). */
export function truncate(text: string, places: number): string {
  const dot = text.indexOf('.');
  if (dot < 0) return text;
  const cut = places === 0 ? text.slice(0, dot) : text.slice(0, dot + 1 + places);
  return /[1-9]/.test(cut) ? cut : cut.replace(/^-/, '');
}

export function hmacHex(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

export function hmacBase64(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64');
}

/** Constant-time comparison of a signature sent with the expected one. */
export function sameText(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

type RequestHeaders = Record<string, string | string[] | undefined>;

/** A header's single value ('' when absent). */
export function header(headers: RequestHeaders, name: string): string {
  const v = headers[name.toLowerCase()];
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

/** Several headers at once, by the names a signing scheme gives them. */
export function headerValues<K extends string>(headers: RequestHeaders, names: Record<K, string>): Record<K, string> {
  return Object.fromEntries(Object.entries<string>(names).map(([k, name]) => [k, header(headers, name)])) as Record<K, string>;
}

export function retryAfterSeconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}

/** The model symbol's pair joined by `sep` (`BTC-USDT`, `BTC_USDT`). */
export function pair(t: { base: string; quote: string }, sep: string): string {
  return `${t.base}${sep}${t.quote}`;
}
