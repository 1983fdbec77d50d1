/** Actions on trading pairs: listing, delisting, scripted price moves and forced ticker values. */
import type { Market, SimSymbol } from '../market/model';
import { touchSymbol } from '../market/model';
import { newSymbol, qtyPlacesFor, quotePlacesFor } from '../market/symbol';
import { DAY_MS } from '../ticker/window';
import { ActionError } from './action-error';
import type { Action } from './schema';

type Of<K extends Action['action']> = Extract<Action, { action: K }>;

/** Quotes tried first when a symbol is split into base and quote. */
const PREFERRED_QUOTES = ['USDT', 'USDC', 'FDUSD', 'BTC', 'ETH', 'BNB'];
/** Typical listing: 1e6 USD traded a day, 300 USD a trade. */
const LISTING_DAILY_USD = 1e6;
const LISTING_TRADE_USD = 300;

function symbolOf(market: Market, symbol: string): SimSymbol {
  const found = market.symbols.get(symbol);
  if (found === undefined) throw new ActionError([`unknown symbol "${symbol}"`]);
  return found;
}

/** USD value of one unit of a coin, read from its USDT pair where there is one. */
function usdOf(market: Market, coin: string): number {
  if (coin === 'USDT') return 1;
  return market.symbols.get(`${coin}USDT`)?.basePrice ?? 1;
}

function splitSymbol(market: Market, a: Of<'list_symbol'>): { base: string; quote: string } {
  if (a.base !== undefined && a.quote !== undefined) return { base: a.base, quote: a.quote };
  const candidates = [...market.coins.keys()]
    .filter((q) => a.symbol.length > q.length && a.symbol.endsWith(q) && (a.quote === undefined || a.quote === q))
    .filter((q) => a.base === undefined || a.base + q === a.symbol)
    .filter((q) => market.coins.has(a.symbol.slice(0, -q.length)))
    .sort((x, y) => rank(x) - rank(y));
  const quote = candidates[0];
  if (quote === undefined) throw new ActionError([`cannot tell the base and quote of ${a.symbol} from the listed coins; give base and quote`]);
  return { base: a.symbol.slice(0, -quote.length), quote };
}

function rank(quote: string): number {
  const i = PREFERRED_QUOTES.indexOf(quote);
  return i < 0 ? PREFERRED_QUOTES.length : i;
}

export function listSymbol(market: Market, a: Of<'list_symbol'>, now: number, seed: number): void {
  if (market.symbols.has(a.symbol)) throw new ActionError([`symbol ${a.symbol} is already listed`]);
  const { base, quote } = splitSymbol(market, a);
  const missing = [base, quote].filter((c) => !market.coins.has(c));
  if (missing.length > 0) throw new ActionError(missing.map((c) => `unknown coin "${c}" (list it before its pairs)`));
  if (base + quote !== a.symbol) throw new ActionError([`symbol ${a.symbol} is not base ${base} + quote ${quote}`]);
  const price = Number(a.price);
  const quoteUsd = usdOf(market, quote);
  market.symbols.set(a.symbol, newSymbol({
    symbol: a.symbol, base, quote, price, listedAt: now,
    dailyQuoteVolume: LISTING_DAILY_USD / quoteUsd, tradeValue: LISTING_TRADE_USD / quoteUsd,
    volatility: 1, spread: 0.001, qtyDecimals: qtyPlacesFor(price * quoteUsd), quoteDecimals: quotePlacesFor(quoteUsd), seed,
  }));
  market.symbolsVersion += 1;
}

export function delistSymbol(market: Market, a: Of<'delist_symbol'>): void {
  symbolOf(market, a.symbol);
  market.symbols.delete(a.symbol);
  market.symbolsVersion += 1;
}

/**
 * A drift of `percent` spread over `over`. Moves that ended before the 24-hour window are folded
 * into the anchor price: they no longer shape anything shown, and a looping scenario must not
 * pile them up.
 */
export function movePrice(market: Market, a: Of<'move_price'>, now: number): void {
  const s = symbolOf(market, a.symbol);
  const horizon = now - DAY_MS - 2 * 60_000;
  for (const m of s.moves.filter((x) => x.startMs + x.overMs < horizon)) s.basePrice *= m.factor;
  s.moves = s.moves.filter((x) => x.startMs + x.overMs >= horizon);
  s.moves.push({ startMs: now, overMs: Math.max(1, a.over), factor: 1 + a.percent / 100 });
  touchSymbol(market, s);
}

export function setTicker(market: Market, a: Of<'set_ticker'>): void {
  const s = symbolOf(market, a.symbol);
  if (a.clear === true) s.overrides.clear();
  for (const [field, value] of Object.entries(a.set ?? {})) s.overrides.set(field, value);
  touchSymbol(market, s);
}
