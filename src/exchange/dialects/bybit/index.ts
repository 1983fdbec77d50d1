/**
 * The dialect `bybit`: Bybit's API v5. The coin info is SIGNED (a read-only key); the tickers
 * are public. dialects.md section 2.
 */
import type { Dialect } from '../../dialect';
import { exactDecimalJson } from '../../decimal';
import { jsonBody } from '../../refusal';
import { bybitRefusal, decodeCoins, decodeTickers, serverTime } from './decode';
import { signBybit } from './sign';
import { BYBIT_PATHS, COIN_DECIMALS, credentials, TICKER_DECIMALS, WEIGHTS, type BybitCredentials } from './wire';

const JSON_OF = { coins: exactDecimalJson(COIN_DECIMALS), tickers: exactDecimalJson(TICKER_DECIMALS) };

export const bybit = {
  name: 'bybit',
  // One request for every spot ticker (`symbol` takes one): the watch list is picked out.
  defaults: { baseUrl: 'https://api.bybit.com', symbolsCap: 0 },
  credentials,
  requests: {
    coins: () => ({ path: BYBIT_PATHS.coins, weight: WEIGHTS.coins, signed: true }),
    tickers: () => ({ path: BYBIT_PATHS.tickers, weight: WEIGHTS.tickers }),
    serverTime: () => ({ path: BYBIT_PATHS.time, weight: WEIGHTS.time }),
  },
  sign: signBybit,
  decode: {
    parse: (text, endpoint) => JSON_OF[endpoint].parseInTurns(text),
    coins: async (body) => decodeCoins(body),
    tickers: async (body) => decodeTickers(body),
    serverTime,
  },
  errors: {
    read: (status, text) => {
      const out = bybitRefusal(jsonBody(text));
      // 403 "access too frequent": the IP is banned for a while (Bybit's rate-limit docs); 429 too.
      if (status === 403) out.pause = 'banned';
      else if (status === 429) out.pause = 'rate_limited';
      return out;
    },
    refusesSymbols: () => false,
  },
} satisfies Dialect<BybitCredentials>;
