/**
 * GET /api/v3/market/ticker/24hr against spec section 4.2 and 2.3, over real HTTP, at the
 * default scale; invariants are checked on every ticker, at many clock times.
 */
import { TICKER_FIELD_NAMES, TICKER_PATH, USED_WEIGHT_HEADER } from '../../src/exchange/dialects/spot-v3/wire';
import { compare } from '../support/decimal';
import { get, getJson, startTestSimulator, T0, type TestSimulator } from '../support/simulator';
import { expectedRatio, tickerProblems } from '../support/ticker-invariants';

type Ticker = Record<string, unknown> & { symbol: string; lastPrice: string; openPrice: string; count: number; volume: string };

let sim: TestSimulator;
let all: Ticker[];

beforeAll(async () => {
  sim = await startTestSimulator({ weightLimit: { max: 1_000_000, windowMs: 10_000 } });
  all = await getJson<Ticker[]>(sim.url, TICKER_PATH);
}, 30_000);

afterAll(() => sim.close());

describe('spec 4.2 response rule 1: symbol gives a single Ticker object', () => {
  it('answers ?symbol=BTCUSDT with one object carrying the fields of spec 2.3 in order', async () => {
    const answer = await get(sim.url, `${TICKER_PATH}?symbol=BTCUSDT`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const t = JSON.parse(answer.text) as Ticker;
    expect(Array.isArray(t)).toBe(false);
    expect(Object.keys(t)).toEqual([...TICKER_FIELD_NAMES]);
    expect(t).toEqual(all.find((x) => x.symbol === 'BTCUSDT'));
  });
});

describe('spec 4.2 response rule 2: otherwise an array of Ticker objects', () => {
  it('answers symbols as a comma list in the order asked', async () => {
    const list = await getJson<Ticker[]>(sim.url, `${TICKER_PATH}?symbols=ETHUSDT,BTCUSDT,SOLUSDT`);
    expect(list.map((t) => t.symbol)).toEqual(['ETHUSDT', 'BTCUSDT', 'SOLUSDT']);
  });

  it('answers symbols as a URL-encoded JSON array in the order asked', async () => {
    const q = encodeURIComponent(JSON.stringify(['SOLUSDT', 'ETHBTC']));
    const list = await getJson<Ticker[]>(sim.url, `${TICKER_PATH}?symbols=${q}`);
    expect(list.map((t) => t.symbol)).toEqual(['SOLUSDT', 'ETHBTC']);
  });

  it('answers a one-entry symbols with a one-element array', async () => {
    const list = await getJson<Ticker[]>(sim.url, `${TICKER_PATH}?symbols=BTCUSDT`);
    expect(list).toHaveLength(1);
  });

  it('answers neither parameter with every symbol, about 0.875 per coin, each once', () => {
    expect(all.length).toBe(sim.control.state().symbols);
    expect(all.length).toBeGreaterThan(3300);
    expect(all.length).toBeLessThan(3700);
    expect(new Set(all.map((t) => t.symbol)).size).toBe(all.length);
    const usdt = all.filter((t) => t.symbol.endsWith('USDT')).length;
    expect(usdt / all.length).toBeGreaterThan(0.85);
    expect(all.some((t) => t.symbol.endsWith('USDC'))).toBe(true);
    expect(all.some((t) => t.symbol.endsWith('BTC'))).toBe(true);
  });
});

describe('spec 4.2 response rule 3: symbol and symbols together are refused', () => {
  it('answers 400 with -1128', async () => {
    const answer = await get(sim.url, `${TICKER_PATH}?symbol=BTCUSDT&symbols=ETHUSDT`);
    expect(answer.status).toBe(400);
    expect(answer.text).toBe('{"code":-1128,"msg":"Combination of optional parameters invalid."}');
  });
});

describe('spec 8: the ticker request weighs 2', () => {
  it('adds 2 to the used weight per request', async () => {
    const before = Number((await get(sim.url, `${TICKER_PATH}?symbol=BTCUSDT`)).headers.get(USED_WEIGHT_HEADER));
    const after = Number((await get(sim.url, `${TICKER_PATH}?symbol=BTCUSDT`)).headers.get(USED_WEIGHT_HEADER));
    expect(after - before).toBe(2);
  });
});

describe('ticker invariants (spec 2.3 and what real clients rely on)', () => {
  it('hold for every ticker at the start', () => {
    expect(all.flatMap((t) => tickerProblems(t, T0))).toEqual([]);
  });

  it('hold for every ticker at many clock times, across buckets, days and weeks', async () => {
    const steps = [1_000, 999, 59_001, 240_000, 300_000, 3_600_000, 86_400_000, 7 * 86_400_000, 1_234_567, 13];
    for (const step of steps) {
      sim.clock.advance(step);
      const list = await getJson<Ticker[]>(sim.url, TICKER_PATH);
      expect(list.flatMap((t) => tickerProblems(t, sim.clock.now()))).toEqual([]);
    }
  }, 60_000);

  it('compute priceChangePercent as the ratio change / open to six places, as real deployments send it', () => {
    expect(expectedRatio('-2169.06', '64147.31')).toBe('-0.033814');
    const btc = all.find((t) => t.symbol === 'BTCUSDT') as Ticker;
    expect(btc.priceChangePercent).toMatch(/^-?0\.\d{6}$/);
  });

  it('move lastPrice second by second, and volume and count within the window', async () => {
    const seen: Ticker[] = [];
    for (let i = 0; i < 6; i++) {
      seen.push(await getJson<Ticker>(sim.url, `${TICKER_PATH}?symbol=BTCUSDT`));
      sim.clock.advance(1_000);
    }
    expect(new Set(seen.map((t) => t.lastPrice)).size).toBeGreaterThan(3);
    expect(new Set(seen.map((t) => t.count)).size).toBeGreaterThan(1);
    expect(new Set(seen.map((t) => t.closeTime)).size).toBe(6);
  });

  it('keep quoteVolume near volume x price', () => {
    for (const t of all.filter((x) => compare(x.volume, '0') > 0).slice(0, 200)) {
      const average = Number(t.quoteVolume) / Number(t.volume);
      expect(average).toBeGreaterThan(Number(t.lowPrice) * 0.97);
      expect(average).toBeLessThan(Number(t.highPrice) * 1.03);
    }
  });

  it('keep a stable pair near 1 and BTC in a realistic range', () => {
    const usdc = all.find((t) => t.symbol === 'USDCUSDT') as Ticker;
    expect(Math.abs(Number(usdc.lastPrice) - 1)).toBeLessThan(0.01);
    const btc = all.find((t) => t.symbol === 'BTCUSDT') as Ticker;
    expect(Number(btc.lastPrice)).toBeGreaterThan(30_000);
    expect(Number(btc.lastPrice)).toBeLessThan(130_000);
    expect(btc.lastPrice).toMatch(/^\d+\.\d{2}$/);
  });
});
