/**
 * `ledger`: a dialect that exists only in tests, for an exchange API unlike the spec's, written
 * the way a real one is (one folder of the same files: this plugin, decode.ts, wire.ts and
 * sign.ts; one object that satisfies Dialect) and registered with one line
 * (`dialects.with(ledger)`). Its coins are signed (HMAC-SHA256 of timestamp + path, with a
 * timestamp the exchange refuses outside 5 s of its own clock, inside an answer of status 200),
 * its answers are `{"ok": true, "data": [...]}` envelopes with bare decimal numbers, its errors
 * are `{"ok": false, "error": {"code", "text"}}`, and it has no request for a watch list.
 */
import type { Dialect } from '../../../../src/exchange/dialect';
import { decodeCoins, decodeTickers, readRefusal, serverTime } from './decode';
import { signLedger } from './sign';
import { credentials, LEDGER_PATHS, type LedgerCredentials } from './wire';

export { LEDGER_PATHS };

export const ledger = {
  name: 'ledger',
  defaults: { baseUrl: 'https://api.ledger.invalid', symbolsCap: 0 },
  credentials,
  requests: {
    coins: () => ({ path: LEDGER_PATHS.assets, weight: 10, signed: true }),
    tickers: () => ({ path: LEDGER_PATHS.tickers, weight: 4 }),
    serverTime: () => ({ path: LEDGER_PATHS.time, weight: 1 }),
  },
  sign: signLedger,
  decode: { coins: decodeCoins, tickers: decodeTickers, serverTime },
  errors: {
    read: readRefusal,
    refusesSymbols: () => false,
  },
} satisfies Dialect<LedgerCredentials>;
