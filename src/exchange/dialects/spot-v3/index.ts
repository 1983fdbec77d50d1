/**
 * The dialect `spot-v3`: the Spot Market Data Interface V3 of the spec
 * (`spec/spot-market-data-interface-v3.md`), the default, and the one the reference exchange
 * speaks. Public requests only; no base URL of its own (with none configured, spotwatch starts
 * the embedded reference exchange).
 */
import type { Dialect } from '../../dialect';
import { decodeCoins, decodeTickers, parseJsonKeepingDecimals, readRefusal, refusesSymbols } from './decode';
import { COINS_PATH, TICKER_PATH, WEIGHTS } from './wire';

export const spotV3 = {
  name: 'spot-v3',
  // The spec leaves the cap of `symbols` unsaid (section 8); 100 is what deployments accept.
  defaults: { symbolsCap: 100 },
  requests: {
    coins: () => ({ path: COINS_PATH, weight: WEIGHTS.coins }),
    tickers: (symbols) => ({
      path: symbols === undefined ? TICKER_PATH : `${TICKER_PATH}?symbols=${encodeURIComponent(JSON.stringify(symbols))}`,
      weight: WEIGHTS.tickers,
    }),
  },
  decode: {
    coins: (text, previous) => decodeCoins(parseJsonKeepingDecimals(text, 'coins'), previous),
    tickers: (text, previous) => decodeTickers(parseJsonKeepingDecimals(text, 'tickers'), previous),
  },
  errors: { read: readRefusal, refusesSymbols },
} satisfies Dialect;
