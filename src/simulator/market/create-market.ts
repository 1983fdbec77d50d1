import { seededRandom } from './random';
import { generateCoins } from './generate-coins';
import { generateSymbols } from './generate-symbols';
import type { Market } from './model';
import { createNotices } from './notices';

export interface MarketOptions {
  seed: number;
  coins: number;
}

/** The market a seed and a size name: same inputs, same coins, same pairs, same prices. */
export function createMarket(options: MarketOptions): Market {
  const random = seededRandom(options.seed);
  const { coins, usd } = generateCoins(random, options.coins);
  const symbols = generateSymbols(random, options.seed, coins, usd);
  return {
    coins: new Map(coins.map((c) => [c.coin, c])),
    symbols: new Map(symbols.map((s) => [s.symbol, s])),
    coinsVersion: 0,
    symbolsVersion: 0,
    notices: createNotices(),
  };
}
