import { spotV3 } from '../../src/exchange/dialects/spot-v3';
import { ExchangeClient } from '../../src/exchange/client';
import { ExchangeError } from '../../src/exchange/errors';
import { silentLogger } from '../../src/lib/logger';
import { ExchangeDouble } from '../support/exchange-double';
import { startTestSimulator, type TestSimulator } from '../support/simulator';

/** A redirect from the exchange: its own kind, and never followed (it may leave the configured host). */

jest.setTimeout(30_000);

let sim: TestSimulator;
let double: ExchangeDouble;
let elsewhere: ExchangeDouble;

beforeAll(async () => {
  sim = await startTestSimulator({ coins: 5, seed: 2, logger: silentLogger() });
  double = await new ExchangeDouble(sim.url).start();
  // Where the redirects point: a working exchange, so following one would have succeeded.
  elsewhere = await new ExchangeDouble(sim.url).start();
});
afterAll(async () => {
  await double.stop();
  await elsewhere.stop();
  await sim.close();
});

function client(): ExchangeClient {
  return new ExchangeClient({
    exchange: 'main',
    dialect: spotV3,
    baseUrl: double.url,
    timeoutMs: 2_000,
    maxBodyBytes: 1 << 20,
    retries: { max: 2, baseDelayMs: 10, maxDelayMs: 50 },
    weightLimit: { max: 1_000, windowMs: 10_000 },
  });
}

it.each([301, 302, 303, 307, 308])('a %i is http_3xx, not retried and not followed', async (status) => {
  double.requests.length = 0;
  elsewhere.requests.length = 0;
  double.respond = (path) => ({ status, body: '', headers: { location: `${elsewhere.url}${path}?token=secret` } });
  const c = client();
  const err = await c.fetchCoins().catch((e: unknown) => e);
  await c.close();
  expect(err).toBeInstanceOf(ExchangeError);
  const { port } = new URL(elsewhere.url);
  expect(err).toMatchObject({
    kind: 'http_3xx',
    status,
    message: `coins: HTTP ${status} to http://127.0.0.1:${port} (redirects are not followed; check base_url)`,
  });
  expect(double.requests).toEqual(['/api/v3/coins']);
  expect(elsewhere.requests).toEqual([]);
});

it('names a relative redirect without its path', async () => {
  double.respond = () => ({ status: 302, body: '', headers: { location: '/login?next=/api/v3/coins' } });
  const c = client();
  const err = await c.fetchCoins().catch((e: unknown) => e);
  await c.close();
  expect(err).toMatchObject({ kind: 'http_3xx', message: 'coins: HTTP 302 to a path on the same host (redirects are not followed; check base_url)' });
});
