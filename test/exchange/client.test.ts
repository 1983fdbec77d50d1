import { createServer } from 'node:net';
import { spotV3 } from '../../src/exchange/dialects/spot-v3';
import { ExchangeClient, type ClientOptions } from '../../src/exchange/client';
import { ExchangeError } from '../../src/exchange/errors';
import { manualClock } from '../../src/lib/clock';
import { silentLogger } from '../../src/lib/logger';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { testClient } from './test-client';

jest.setTimeout(30_000);

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, coins: 60, seed: 5, logger: silentLogger(), weightLimit: { max: 100_000, windowMs: 10_000 } });
});
afterAll(() => sim.close());
afterEach(() => {
  sim.control.clearFaults();
  sim.control.resetLimits();
});

function client(over: Partial<ClientOptions> = {}): ExchangeClient {
  return testClient(sim.url, { timeoutMs: 1_000, ...over });
}

async function failure(run: (c: ExchangeClient) => Promise<unknown>, c = client()): Promise<ExchangeError> {
  try {
    await run(c);
  } catch (err) {
    await c.close();
    if (err instanceof ExchangeError) return err;
    throw err;
  }
  await c.close();
  throw new Error('expected a failure');
}

describe('ExchangeClient against the reference exchange', () => {
  it('reads every coin and network, and the tickers, without issues', async () => {
    const c = client();
    const coins = await c.fetchCoins();
    const tickers = await c.fetchTickers([]);
    await c.close();
    expect(coins.issues).toEqual([]);
    expect(coins.records).toHaveLength(60);
    expect(coins.records.find((x) => x.coin === 'USDT')?.networkList.find((n) => n.network === 'Tron(TRC20)')).toMatchObject({
      coin: 'USDT', withdrawIntegerMultiple: '0.000001', contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', isDefault: expect.any(Boolean),
    });
    expect(tickers.issues).toEqual([]);
    expect(tickers.records.length).toBeGreaterThan(20);
  });

  it('asks for a watch list in the order given, splitting it over the symbols cap', async () => {
    const all = (await client().fetchTickers([])).records.map((t) => t.symbol);
    const wanted = [...all].reverse();
    const c = client({ dialect: { ...spotV3, defaults: { ...spotV3.defaults, symbolsCap: 7 } } });
    const got = await c.fetchTickers(wanted);
    await c.close();
    expect(got.records.map((t) => t.symbol)).toEqual(wanted);
    expect(got.requests).toBe(Math.ceil(wanted.length / 7));
  });

  it('treats a watched symbol the exchange does not know as missing, not as an error', async () => {
    const c = client();
    const got = await c.fetchTickers(['BTCUSDT', 'NOSUCHUSDT', 'ETHUSDT']);
    await c.close();
    expect(got.records.map((t) => t.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
  });

  it.each([
    ['http_500', { kind: 'http_500', status: 503 }, 'http_5xx', 'coins: HTTP 503'],
    ['invalid_json', { kind: 'invalid_json' }, 'invalid_json', 'coins: answer is not valid JSON'],
    ['html error page', { kind: 'html' }, 'http_5xx', 'coins: HTTP 502'],
    ['wrong_shape', { kind: 'wrong_shape' }, 'schema', 'coins: expected a list, got an error envelope'],
    ['rate_limit', { kind: 'rate_limit', retry_after: 3, code_as_string: true }, 'rate_limited', 'coins: HTTP 429 code -1003'],
    ['ban', { kind: 'ban', retry_after: 30 }, 'banned', 'coins: HTTP 418 code -1003'],
    ['hang', { kind: 'hang' }, 'timeout', 'coins: no complete answer within 1000 ms'],
    ['truncate', { kind: 'truncate' }, 'connect', 'coins: request failed'],
    ['huge', { kind: 'huge', bytes: 64 * 1024 * 1024 }, 'body_too_large', 'coins: body too large'],
    ['delay beyond the timeout', { kind: 'delay', ms: 3000 }, 'timeout', 'coins: no complete answer within 1000 ms'],
  ])('classifies %s as %s', async (_name, fault, kind, message) => {
    sim.control.addFault({ ...fault, endpoint: 'coins' });
    const err = await failure((c) => c.fetchCoins());
    expect(err.kind).toBe(kind);
    expect(err.message.startsWith(message)).toBe(true);
    if (kind === 'rate_limited') expect([err.code, err.retryAfterMs]).toEqual(['-1003', 3000]);
  });

  it('classifies a refused connection', async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const err = await failure((c) => c.fetchCoins(), client({ baseUrl: `http://127.0.0.1:${port}` }));
    expect(err.kind).toBe('connect');
  });

  it('retries a 5xx and succeeds on the next attempt', async () => {
    sim.control.addFault({ kind: 'http_500', endpoint: 'coins', count: 1 });
    const retries: string[] = [];
    const c = client({ retries: { max: 2, baseDelayMs: 10, maxDelayMs: 50 }, onRetry: (e, attempt) => retries.push(`${e.kind}#${attempt}`) });
    const got = await c.fetchCoins();
    await c.close();
    expect(got.records).toHaveLength(60);
    expect(retries).toEqual(['http_5xx#1']);
  });

  it("stops retrying when a retry would start past the poll's interval (retries.max notwithstanding)", async () => {
    sim.control.addFault({ kind: 'http_500', endpoint: 'coins', count: 1_000 });
    const clock = manualClock(1_700_000_000_000);
    const retries: string[] = [];
    // Each failed attempt is taken to last 3 s; the delays are 1 ms; a retry is made while it
    // starts within the 10 s interval: after 0, 3, 6 and 9 s, not after 12 s.
    const c = client({
      clock,
      timeoutMs: 1_000,
      retries: { max: 10, baseDelayMs: 1, maxDelayMs: 1 },
      retryWithinMs: { coins: 10_000 },
      random: () => 1,
      onRetry: (e, attempt, delayMs) => {
        retries.push(`${e.kind}#${attempt} ${delayMs} ms at ${clock.monotonic()}`);
        clock.advance(3_000);
      },
    });
    const err = await failure((x) => x.fetchCoins(), c);
    expect([err.kind, err.message]).toEqual(['http_5xx', 'coins: HTTP 500 code -1001: Internal Server Error.']);
    expect(retries).toEqual(['http_5xx#1 1 ms at 0', 'http_5xx#2 1 ms at 3000', 'http_5xx#3 1 ms at 6000', 'http_5xx#4 1 ms at 9000']);
  });

  it('honours Retry-After: after a 429 it sends nothing until the pause is over', async () => {
    sim.control.addFault({ kind: 'rate_limit', endpoint: 'coins', count: 1, retry_after: 30 });
    const c = client();
    await expect(c.fetchCoins()).rejects.toMatchObject({ kind: 'rate_limited' });
    const before = sim.control.state();
    await expect(c.fetchCoins()).rejects.toMatchObject({ kind: 'rate_limited', message: expect.stringContaining('not sent') });
    await expect(c.fetchTickers([])).rejects.toMatchObject({ kind: 'rate_limited', message: expect.stringContaining('not sent') });
    expect(sim.control.state().faults).toEqual(before.faults);
    await c.close();
  });

  it('keeps to its own weight budget and never gets a 429 from the exchange', async () => {
    sim.control.resetLimits();
    const strict = await startSimulator({ port: 0, coins: 5, seed: 1, logger: silentLogger(), weightLimit: { max: 20, windowMs: 1_000 } });
    const c = new ExchangeClient({ exchange: 'x', dialect: spotV3, baseUrl: strict.url, timeoutMs: 2000, maxBodyBytes: 1 << 20, retries: { max: 0, baseDelayMs: 10, maxDelayMs: 50 }, weightLimit: { max: 20, windowMs: 1_000 } });
    const started = Date.now();
    for (let i = 0; i < 8; i++) await c.fetchCoins(); // 40 weight against a budget of 20 per second
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await c.close();
    await strict.close();
  });

  it('isolates malformed records and keeps the good ones', async () => {
    sim.control.addFault({ kind: 'malformed', endpoint: 'coins', records: 3 });
    const c = client();
    const got = await c.fetchCoins();
    await c.close();
    expect(got.issues.length).toBeGreaterThanOrEqual(3);
    expect(got.records.length).toBeGreaterThan(50);
  });

  it('reads an empty list as an empty list (the watcher, not the client, refuses to believe it)', async () => {
    sim.control.addFault({ kind: 'empty', endpoint: 'coins' });
    const c = client();
    expect((await c.fetchCoins()).records).toEqual([]);
    await c.close();
  });
});
