/** Bodies of the two endpoints at a given scale, without a server: fixtures for benchmarks. */
import { createCoinsBody } from './market/coins-body';
import { createMarket } from './market/create-market';
import { SIMULATOR_DEFAULTS } from './options';
import { alignCloseTime, createTickerBook } from './ticker/book';

export interface RenderOptions {
  seed?: number;
  coins?: number;
}

/** The exact `/api/v3/coins` body a fresh simulator with these options serves. */
export function renderCoinsBody(options: RenderOptions = {}): string {
  const market = createMarket({ seed: options.seed ?? SIMULATOR_DEFAULTS.seed, coins: options.coins ?? SIMULATOR_DEFAULTS.coins });
  return createCoinsBody(market).body().toString();
}

/** The all-symbols ticker body a fresh simulator with these options serves at `now` (epoch ms). */
export function renderTickersBody(options: RenderOptions & { now: number }): string {
  const market = createMarket({ seed: options.seed ?? SIMULATOR_DEFAULTS.seed, coins: options.coins ?? SIMULATOR_DEFAULTS.coins });
  return createTickerBook(market).all(alignCloseTime(options.now)).toString();
}
