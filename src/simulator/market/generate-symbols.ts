/**
 * Trading pairs, about 0.875 per coin: mostly `<BASE>USDT`, some `<BASE>USDC` and `<BASE>BTC`.
 * Every base and quote is a listed coin.
 */
import type { Random } from './random';
import { KNOWN_EXTRA_PAIRS, STABLE_COINS, WELL_KNOWN_COINS } from '../catalog/well-known';
import type { SimCoin, SimSymbol } from './model';
import { newSymbol, qtyPlacesFor, quotePlacesFor } from './symbol';

const QUOTES = ['USDT', 'USDC', 'BTC'] as const;
/** Chance of each quote for a generated coin: 0.8 + 0.05 + 0.025 = 0.875 pairs per coin. */
const QUOTE_SHARE = { USDT: 0.8, USDC: 0.05, BTC: 0.025 } as const;

export function generateSymbols(random: Random, seed: number, coins: readonly SimCoin[], usd: ReadonlyMap<string, number>): SimSymbol[] {
  const symbols: SimSymbol[] = [];
  const known = new Set(WELL_KNOWN_COINS.map((c) => c.coin));
  const add = (base: string, quote: string, rank: number | null): void => {
    const baseUsd = usd.get(base);
    const quoteUsd = usd.get(quote);
    if (baseUsd === undefined || quoteUsd === undefined) return;
    const stable = STABLE_COINS.has(base) && STABLE_COINS.has(quote);
    // Known pairs trade by rank (BTC ~ 2e9 USD a day); generated ones between 1e3 and 1e7 USD.
    const dailyUsd = rank === null ? 10 ** (3 + random() * 4) : 2e9 / (rank + 1) ** 1.3;
    symbols.push(newSymbol({
      symbol: `${base}${quote}`, base, quote, price: baseUsd / quoteUsd, listedAt: null,
      dailyQuoteVolume: dailyUsd / quoteUsd, tradeValue: 10 ** (2 + random() * 1.3) / quoteUsd,
      volatility: stable ? 0.03 : rank === null ? 0.8 + random() * 1.7 : 1,
      spread: stable ? 0.00002 : rank === null ? 0.0005 + random() * 0.0045 : 0.00005 + random() * 0.00015,
      qtyDecimals: qtyPlacesFor(baseUsd), quoteDecimals: quotePlacesFor(quoteUsd), seed,
    }));
  };
  coins.forEach((coin, rank) => {
    if (!known.has(coin.coin)) return;
    if (coin.coin !== 'USDT') add(coin.coin, 'USDT', rank);
  });
  for (const pair of KNOWN_EXTRA_PAIRS) {
    const quote = QUOTES.find((q) => pair.endsWith(q));
    if (quote !== undefined) add(pair.slice(0, -quote.length), quote, 10);
  }
  for (const coin of coins) {
    if (known.has(coin.coin)) continue;
    for (const quote of QUOTES) if (random() < QUOTE_SHARE[quote]) add(coin.coin, quote, null);
  }
  return symbols;
}
