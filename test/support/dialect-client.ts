import { ExchangeClient } from '../../src/exchange/client';
import { dialects } from '../../src/exchange/dialects/registry';

/** The credentials the reference exchange accepts in the tests (startSimulator's `credentials`). */
export const SIM_KEY = { api_key: 'k-123', api_secret: 's-456', passphrase: 'p-789' };

/** A client of `dialect` at `baseUrl` as the dialect tests use it: signed with SIM_KEY where the dialect signs, no retries, room for a large answer. */
export function dialectClient(dialect: string, baseUrl: string): ExchangeClient {
  const d = dialects.named(dialect);
  return new ExchangeClient({
    exchange: dialect,
    dialect: d,
    baseUrl,
    timeoutMs: 5_000,
    maxBodyBytes: 16 * 1024 * 1024,
    retries: { max: 0, baseDelayMs: 10, maxDelayMs: 50 },
    weightLimit: { max: 1_000_000, windowMs: 10_000 },
    ...(d.credentials !== undefined && { credentials: d.credentials.safeParse(SIM_KEY).success ? SIM_KEY : { api_key: SIM_KEY.api_key, api_secret: SIM_KEY.api_secret } }),
  });
}
