/**
 * The dialect `okx`: OKX's API v5. The currencies are SIGNED (key, secret and passphrase of a
 * read-only key); the tickers are public. dialects.md section 2.
 */
import type { Dialect } from '../../dialect';
import { exactDecimalJson } from '../../decimal';
import { jsonBody } from '../../refusal';
import { decodeCoins, decodeTickers, okxRefusal, serverTime } from './decode';
import { signOkx } from './sign';
import { COIN_DECIMALS, credentials, OKX_PATHS, TICKER_DECIMALS, WEIGHTS, type OkxCredentials } from './wire';

const JSON_OF = { coins: exactDecimalJson(COIN_DECIMALS), tickers: exactDecimalJson(TICKER_DECIMALS) };

export const okx = {
  name: 'okx',
  // One request for every SPOT ticker; it takes no list of symbols.
  defaults: { baseUrl: 'https://www.okx.com', symbolsCap: 0 },
  credentials,
  requests: {
    coins: () => ({ path: OKX_PATHS.coins, weight: WEIGHTS.coins, signed: true }),
    tickers: () => ({ path: OKX_PATHS.tickers, weight: WEIGHTS.tickers }),
    serverTime: () => ({ path: OKX_PATHS.time, weight: WEIGHTS.time }),
  },
  sign: signOkx,
  decode: {
    parse: (text, endpoint) => JSON_OF[endpoint].parseInTurns(text),
    coins: async (body) => decodeCoins(body),
    tickers: async (body) => decodeTickers(body),
    serverTime,
  },
  errors: {
    read: (status, text) => {
      const out = okxRefusal(jsonBody(text));
      if (status === 429) out.pause = 'rate_limited';
      return out;
    },
    refusesSymbols: () => false,
  },
} satisfies Dialect<OkxCredentials>;
