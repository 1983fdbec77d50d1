import type { ClientOptions, ExchangeClient } from '../../src/exchange/client';
import { spotV3 } from '../../src/exchange/dialects/spot-v3';
import { LastAnswers } from '../../src/exchange/last-answers';
import { rereadTickers } from '../../src/exchange/reread';
import type { Watched } from '../../src/exchange/watch-list';
import { silentLogger } from '../../src/lib/logger';
import { editJson, ExchangeDouble } from '../support/exchange-double';
import { startTestSimulator, type TestSimulator } from '../support/simulator';
import { testClient } from './test-client';

/**
 * A watch list with a symbol the exchange refuses: the refused symbols are found (by halving
 * the list), left out as missing, and the others are read as usual, whatever the 4xx says.
 */

jest.setTimeout(30_000);

let sim: TestSimulator;
let double: ExchangeDouble;
let symbols: string[];

beforeAll(async () => {
  sim = await startTestSimulator({ coins: 40, seed: 7, logger: silentLogger(), weightLimit: { max: 100_000, windowMs: 10_000 } });
  double = await new ExchangeDouble(sim.url).start();
  const all = JSON.parse(await (await fetch(`${sim.url}/api/v3/market/ticker/24hr`)).text()) as { symbol: string }[];
  symbols = all.map((t) => t.symbol).slice(0, 10);
  if (symbols.length < 10) throw new Error('the market has fewer than 10 symbols');
});
afterAll(async () => {
  await double.stop();
  await sim.close();
});
afterEach(() => {
  double.respond = (_path, upstream) => upstream();
  double.requests.length = 0;
});

function client(over: Partial<ClientOptions> = {}): ExchangeClient {
  return testClient(double.url, over);
}

/** The `symbols` of a request path, or undefined for a request of every symbol. */
function asked(path: string): string[] | undefined {
  const q = new URL(path, 'http://x').searchParams.get('symbols');
  return q === null ? undefined : (JSON.parse(q) as string[]);
}

/**
 * Answers -2007 (another deployment's "Symbol does not exist") to any request naming one of
 * `gone`, and leaves them out of the list of every symbol, as an exchange that delisted them.
 */
function refusing(gone: readonly string[], status = 400, code: number | string = -2007): void {
  double.respond = async (path, upstream) => {
    const list = asked(path);
    if (list !== undefined && list.some((s) => gone.includes(s))) return { status, body: JSON.stringify({ code, msg: 'Symbol does not exist' }) };
    if (list !== undefined) return upstream();
    return editJson(await upstream(), (body) => (body as { symbol: string }[]).filter((t) => !gone.includes(t.symbol)));
  };
}

describe('a watched symbol the exchange refuses', () => {
  it('-2007: the symbol at fault is found by halving, reported as refused, the rest read in order', async () => {
    const gone = symbols[3] as string;
    refusing([gone]);
    const c = client();
    const got = await c.fetchTickers(symbols);
    expect(got.records.map((t) => t.symbol)).toEqual(symbols.filter((s) => s !== gone));
    expect(got.refused).toEqual([gone]);
    expect(got.issues).toEqual([]);
    // The list (refused), its first half (refused), [0..2] (answered), then [3] (refused)
    // and [4] (answered); [5..9] answered. The whole of [3, 4] is not asked again.
    expect(double.requests.map(asked)).toEqual([symbols, symbols.slice(0, 5), symbols.slice(0, 3), [symbols[3]], [symbols[4]], symbols.slice(5)]);
    expect(got.requests).toBe(6);

    // The next poll asks for the refused symbol on its own: two requests, not another search.
    double.requests.length = 0;
    const again = await c.fetchTickers(symbols);
    await c.close();
    expect(again.records.map((t) => t.symbol)).toEqual(symbols.filter((s) => s !== gone));
    expect(again.refused).toEqual([gone]);
    expect(double.requests.map(asked)).toEqual([symbols.filter((s) => s !== gone), [gone]]);
  });

  it.each([
    ['404', 404, -1121],
    ['-1121 as a string', 400, '-1121'],
    ['a 400 without a code', 400, ''],
  ])('any 4xx (%s) is narrowed down the same way', async (_name, status, code) => {
    const gone = [symbols[0] as string, symbols[9] as string];
    refusing(gone, status, code);
    const c = client();
    const got = await c.fetchTickers(symbols);
    await c.close();
    expect(got.records.map((t) => t.symbol)).toEqual(symbols.slice(1, 9));
    expect(got.refused).toEqual(gone);
  });

  it('a symbol the reference exchange delisted is refused (-1121) and reported the same way', async () => {
    const gone = symbols[6] as string;
    sim.control.apply({ action: 'delist_symbol', symbol: gone });
    const c = client();
    const got = await c.fetchTickers(symbols);
    await c.close();
    expect(got.records.map((t) => t.symbol)).toEqual(symbols.filter((s) => s !== gone));
    expect(got.refused).toEqual([gone]);
    symbols = symbols.filter((s) => s !== gone);
  });

  it('when a symbol comes back, it is read again and no longer refused', async () => {
    const gone = symbols[2] as string;
    refusing([gone]);
    const c = client();
    expect((await c.fetchTickers(symbols)).refused).toEqual([gone]);
    double.respond = (_path, upstream) => upstream();
    const back = await c.fetchTickers(symbols);
    await c.close();
    expect(back.records.map((t) => t.symbol)).toEqual(symbols);
    expect(back.refused).toBeUndefined();
  });

  it('a 4xx to every symbols= request is not "everything missing": one request for every symbol decides', async () => {
    double.respond = (path, upstream) => (asked(path) !== undefined ? { status: 403, body: '{"code":-1,"msg":"forbidden"}' } : upstream());
    const c = client();
    const got = await c.fetchTickers(symbols.slice(0, 2));
    expect(got.records.map((t) => t.symbol)).toEqual(symbols.slice(0, 2));
    expect(got.refused).toBeUndefined();
    expect(double.requests.at(-1)).toBe('/api/v3/market/ticker/24hr');

    // And when that fails too, the poll fails: nothing is read as missing.
    double.respond = () => ({ status: 403, body: '{"code":-1,"msg":"forbidden"}' });
    await expect(c.fetchTickers(symbols.slice(0, 2))).rejects.toMatchObject({ kind: 'http_4xx', status: 403 });
    await c.close();
  });

  it('stays within the weight budget: too many refused symbols to find one by one, one request for every symbol', async () => {
    const gone = symbols.filter((_s, i) => i % 2 === 0);
    refusing(gone);
    // A budget of 40 weight allows 2 halvings (a quarter of the window at 2 per request, each halving up to 2).
    const c = client({ weightLimit: { max: 40, windowMs: 10_000 } });
    const got = await c.fetchTickers(symbols);
    await c.close();
    expect(got.records.map((t) => t.symbol)).toEqual(symbols.filter((s) => !gone.includes(s)));
    expect(got.refused).toEqual(gone);
    expect(double.requests.length).toBeLessThanOrEqual(1 + 2 * 2 + 1);
    expect(double.requests.at(-1)).toBe('/api/v3/market/ticker/24hr');
  });
});

describe('a watch list read again from the answers it was read from (a replay)', () => {
  /** What the client made of a fetch, as step takes it. */
  const made = (r: Watched): object => ({ records: r.records, issues: r.issues, ...(r.refused !== undefined && { refused: r.refused }) });

  it('gives exactly what the client gave, poll after poll: parts joined, refused symbols last, one request for every symbol', async () => {
    // 3 halvings: enough to find one refused symbol of ten, not five.
    const c = client({ weightLimit: { max: 60, windowMs: 10_000 } });
    const last = new LastAnswers();
    const polls: [string, () => void][] = [
      ['all answered', () => undefined],
      ['one refused, found by halving', () => refusing([symbols[3] as string])],
      ['the refused one asked last, on its own', () => refusing([symbols[3] as string])],
      ['too many refused: one request for every symbol', () => refusing(symbols.filter((_s, i) => i % 2 === 0))],
      ['back to all answered: the same bytes as before', () => (double.respond = (_path, upstream) => upstream())],
      ['again the same bytes', () => undefined],
    ];
    const hows: string[] = [];
    for (const [, script] of polls) {
      script();
      const got = await c.fetchTickers(symbols);
      const texts = got.texts;
      hows.push(texts.watch?.how ?? 'none');
      expect(made(rereadTickers(texts, spotV3, new Map(), last))).toEqual(made(got));
    }
    await c.close();
    expect(hows).toEqual(['parts', 'parts', 'parts', 'all', 'parts', 'parts']);
  });
});
