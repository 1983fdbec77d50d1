import type { ExchangeClient } from '../../src/exchange/client';
import { dialects } from '../../src/exchange/dialects/registry';
import { testClient } from '../exchange/test-client';

/** The credentials the reference exchange accepts in the tests (startSimulator's `credentials`). */
export const SIM_KEY = { api_key: 'k-123', api_secret: 's-456', passphrase: 'p-789' };

/** The test client (test/exchange/test-client.ts) for `dialect`, signed with SIM_KEY where the dialect signs (its own fields only). */
export function dialectClient(dialect: string, baseUrl: string): ExchangeClient {
  const d = dialects.named(dialect);
  const credentials = d.credentials?.safeParse(SIM_KEY).success === true ? SIM_KEY : { api_key: SIM_KEY.api_key, api_secret: SIM_KEY.api_secret };
  return testClient(baseUrl, {
    exchange: dialect,
    dialect: d,
    timeoutMs: 5_000,
    maxBodyBytes: 16 * 1024 * 1024,
    weightLimit: { max: 1_000_000, windowMs: 10_000 },
    ...(d.credentials !== undefined && { credentials }),
  });
}
