import { ExchangeClient, type ClientOptions } from '../../src/exchange/client';
import { spotV3 } from '../../src/exchange/dialects/spot-v3';

/**
 * A client of the exchange at `baseUrl` as the exchange tests use it: the spec's dialect, no
 * retries, a budget that never throttles, room for a large answer; `over` changes any of it.
 */
export function testClient(baseUrl: string, over: Partial<ClientOptions> = {}): ExchangeClient {
  return new ExchangeClient({
    exchange: 'main',
    dialect: spotV3,
    baseUrl,
    timeoutMs: 2_000,
    maxBodyBytes: 8 * 1024 * 1024,
    retries: { max: 0, baseDelayMs: 10, maxDelayMs: 50 },
    weightLimit: { max: 100_000, windowMs: 10_000 },
    ...over,
  });
}
