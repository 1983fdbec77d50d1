/** A seed, a size and a clock name one exact exchange: byte-identical answers, whatever came before. */
import { COINS_PATH, TICKER_PATH } from '../../src/exchange/dialects/spot-v3/wire';
import { renderCoinsBody, renderTickersBody } from '../../src/simulator';
import { get, startTestSimulator, T0, type TestSimulator } from '../support/simulator';

const roomy = { weightLimit: { max: 100_000, windowMs: 10_000 } };

describe('determinism by seed', () => {
  const sims: TestSimulator[] = [];
  const start = async (seed: number): Promise<TestSimulator> => {
    const sim = await startTestSimulator({ seed, coins: 800, ...roomy });
    sims.push(sim);
    return sim;
  };
  afterAll(() => Promise.all(sims.map((s) => s.close())));

  it('serves byte-identical coins and tickers for the same seed, size and clock', async () => {
    const [a, b] = [await start(7), await start(7)];
    expect((await get(a.url, COINS_PATH)).text).toBe((await get(b.url, COINS_PATH)).text);
    expect((await get(a.url, TICKER_PATH)).text).toBe((await get(b.url, TICKER_PATH)).text);
  });

  it('serves another market for another seed, with the same well-known coins first', async () => {
    const [a, c] = [await start(7), await start(8)];
    const coinsA = (await get(a.url, COINS_PATH)).text;
    const coinsC = (await get(c.url, COINS_PATH)).text;
    expect(coinsA).not.toBe(coinsC);
    expect(coinsA.slice(0, 5_000)).toBe(coinsC.slice(0, 5_000));
    expect((await get(a.url, TICKER_PATH)).text).not.toBe((await get(c.url, TICKER_PATH)).text);
  });

  it('answers at a given time the same whether or not it was asked before (prices are a function of time)', async () => {
    const [asked, fresh] = [await start(9), await start(9)];
    for (const step of [1_000, 300_000, 3_600_000, 90_000_000]) {
      asked.clock.advance(step);
      await get(asked.url, TICKER_PATH);
    }
    fresh.clock.set(asked.clock.now());
    expect((await get(asked.url, TICKER_PATH)).text).toBe((await get(fresh.url, TICKER_PATH)).text);
  });

  it('gives benchmarks the exact bodies a simulator serves, without a server', async () => {
    const sim = await start(11);
    expect(renderCoinsBody({ seed: 11, coins: 800 })).toBe((await get(sim.url, COINS_PATH)).text);
    expect(renderTickersBody({ seed: 11, coins: 800, now: T0 + 456 })).toBe((await get(sim.url, TICKER_PATH)).text);
  });

  it('renders the default scale from the defaults', () => {
    const body = renderCoinsBody();
    expect((JSON.parse(body) as unknown[]).length).toBe(4000);
    expect(body.length).toBeGreaterThan(3_000_000);
  });
});
