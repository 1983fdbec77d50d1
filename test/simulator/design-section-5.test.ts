/**
 * What the spec leaves open and the reference exchange fixes (DESIGN.md section 5), one
 * describe per row of that table, with the exact status, headers and body.
 */
import { COINS_PATH, TICKER_PATH, USED_WEIGHT_HEADER } from '../../src/exchange/dialects/spot-v3/wire';
import { get, getFrom, postJson, startTestSimulator, type TestSimulator } from '../support/simulator';

const ILLEGAL_SYMBOL = `{"code":-1100,"msg":"Illegal characters found in parameter 'symbol'; legal range is '^[A-Z0-9-_.]{1,20}$'."}`;
const ILLEGAL_SYMBOLS = `{"code":-1100,"msg":"Illegal characters found in parameter 'symbols'; legal range is '^[A-Z0-9-_.]{1,20}$'."}`;
const malformed = (why: string): string => `{"code":-1102,"msg":"Parameter 'symbols' is malformed: ${why}."}`;

describe('at a small scale, with a roomy budget', () => {
  let sim: TestSimulator;
  beforeAll(async () => {
    sim = await startTestSimulator({ coins: 300, weightLimit: { max: 100_000, windowMs: 10_000 } });
  });
  afterAll(() => sim.close());

  describe('row "error body": HTTP 400 {"code": N, "msg": "..."}', () => {
    it('sends JSON with a numeric code and a message', async () => {
      const answer = await get(sim.url, `${TICKER_PATH}?symbol=NOPEUSDT`);
      expect(answer.status).toBe(400);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Object.keys(JSON.parse(answer.text) as object)).toEqual(['code', 'msg']);
    });
  });

  describe('row "unknown symbol": 400, code -1121, "Invalid symbol."', () => {
    it.each([
      ['symbol', '?symbol=NOPEUSDT'],
      ['one of symbols (comma list)', '?symbols=BTCUSDT,NOPEUSDT'],
      ['one of symbols (JSON array)', `?symbols=${encodeURIComponent('["BTCUSDT","NOPEUSDT"]')}`],
    ])('refuses an unknown %s', async (_what, query) => {
      const answer = await get(sim.url, `${TICKER_PATH}${query}`);
      expect([answer.status, answer.text]).toEqual([400, '{"code":-1121,"msg":"Invalid symbol."}']);
    });
  });

  describe('row "both symbol and symbols": 400, code -1128', () => {
    it.each([
      ['both filled', '?symbol=BTCUSDT&symbols=ETHUSDT'],
      ['both present, one empty', '?symbol=&symbols=ETHUSDT'],
    ])('refuses %s', async (_what, query) => {
      const answer = await get(sim.url, `${TICKER_PATH}${query}`);
      expect([answer.status, answer.text]).toEqual([400, '{"code":-1128,"msg":"Combination of optional parameters invalid."}']);
    });
  });

  describe('row "malformed symbols": 400, code -1100 (illegal characters) or -1102 (malformed)', () => {
    it.each([
      ['a lowercase symbol', '?symbol=btcusdt', ILLEGAL_SYMBOL],
      ['a symbol with a space', '?symbol=BTC%20USDT', ILLEGAL_SYMBOL],
      ['a symbol written as a JSON array', `?symbol=${encodeURIComponent('["BTCUSDT"]')}`, ILLEGAL_SYMBOL],
      ['a symbol longer than 20', `?symbol=${'A'.repeat(21)}`, ILLEGAL_SYMBOL],
      ['an empty symbol', '?symbol=', `{"code":-1102,"msg":"Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."}`],
      ['symbol twice', '?symbol=BTCUSDT&symbol=ETHUSDT', `{"code":-1102,"msg":"Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."}`],
      ['a space in the comma list', '?symbols=BTCUSDT,%20ETHUSDT', ILLEGAL_SYMBOLS],
      ['a lowercase entry in the JSON array', `?symbols=${encodeURIComponent('["BTCUSDT","ethusdt"]')}`, ILLEGAL_SYMBOLS],
      ['a JSON array cut short', `?symbols=${encodeURIComponent('["BTCUSDT",')}`, malformed('not a JSON array of strings')],
      ['a JSON array of numbers', `?symbols=${encodeURIComponent('[1,2]')}`, malformed('not a JSON array of strings')],
      ['an empty entry', '?symbols=BTCUSDT,,ETHUSDT', malformed('empty entry')],
      ['a trailing comma', '?symbols=BTCUSDT,', malformed('empty entry')],
      ['an empty JSON entry', `?symbols=${encodeURIComponent('["BTCUSDT",""]')}`, malformed('empty entry')],
      ['an empty list', '?symbols=', malformed('empty list')],
      ['an empty JSON array', `?symbols=${encodeURIComponent('[]')}`, malformed('empty list')],
      ['a duplicate', '?symbols=BTCUSDT,ETHUSDT,BTCUSDT', malformed("duplicate symbol 'BTCUSDT'")],
      ['symbols twice', '?symbols=BTCUSDT&symbols=ETHUSDT', malformed('sent more than once')],
    ])('refuses %s', async (_what, query, body) => {
      const answer = await get(sim.url, `${TICKER_PATH}${query}`);
      expect([answer.status, answer.text]).toEqual([400, body]);
    });

    it.each([
      ['a bracketed symbol', TICKER_PATH, '?symbol[]=BTCUSDT', `{"code":-1100,"msg":"Illegal characters found in parameter name 'symbol[]'; send each parameter once, by its plain name."}`],
      ['a bracketed symbols next to a plain one', TICKER_PATH, '?symbols[]=BTCUSDT&symbols=ETHUSDT', `{"code":-1100,"msg":"Illegal characters found in parameter name 'symbols[]'; send each parameter once, by its plain name."}`],
      ['an indexed parameter on coins', COINS_PATH, '?coin[0]=BTC', `{"code":-1100,"msg":"Illegal characters found in parameter name 'coin[0]'; send each parameter once, by its plain name."}`],
      ['any other parameter twice on tickers', TICKER_PATH, '?symbol=BTCUSDT&limit=1&limit=2', `{"code":-1102,"msg":"Parameter 'limit' is malformed: sent more than once."}`],
      ['any parameter twice on coins', COINS_PATH, '?coin=BTC&coin=ETH', `{"code":-1102,"msg":"Parameter 'coin' is malformed: sent more than once."}`],
    ])('refuses %s (a repeated or bracketed parameter is never silently ignored)', async (_what, path, query, body) => {
      const answer = await get(sim.url, `${path}${query}`);
      expect([answer.status, answer.text]).toEqual([400, body]);
    });
  });

  describe('row "max entries in symbols": configurable (default 100); more: 400 -1102', () => {
    it('accepts 100 symbols and refuses 101', async () => {
      const names = (JSON.parse((await get(sim.url, TICKER_PATH)).text) as { symbol: string }[]).map((t) => t.symbol);
      const ok = await get(sim.url, `${TICKER_PATH}?symbols=${names.slice(0, 100).join(',')}`);
      expect(ok.status).toBe(200);
      expect((JSON.parse(ok.text) as unknown[]).length).toBe(100);
      const tooMany = await get(sim.url, `${TICKER_PATH}?symbols=${names.slice(0, 101).join(',')}`);
      expect([tooMany.status, tooMany.text]).toEqual([400, malformed('more than 100 symbols')]);
    });

    it('takes its cap from the options', async () => {
      const small = await startTestSimulator({ coins: 60, symbolsCap: 2 });
      try {
        const answer = await get(small.url, `${TICKER_PATH}?symbols=BTCUSDT,ETHUSDT,SOLUSDT`);
        expect([answer.status, answer.text]).toEqual([400, malformed('more than 2 symbols')]);
      } finally {
        await small.close();
      }
    });
  });

  describe('row "unknown path or method": 404 / 405 with the same error body', () => {
    it('answers an unknown path with 404', async () => {
      const answer = await get(sim.url, '/api/v3/nope');
      expect([answer.status, answer.text]).toEqual([404, '{"code":-1000,"msg":"Unknown path: /api/v3/nope"}']);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    });

    it('treats paths exactly: a trailing slash or another case is unknown', async () => {
      expect((await get(sim.url, `${COINS_PATH}/`)).status).toBe(404);
      expect((await get(sim.url, '/API/V3/COINS')).status).toBe(404);
    });

    it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('answers %s on a known path with 405 and Allow', async (method) => {
      const answer = await get(sim.url, TICKER_PATH, { method });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('GET, HEAD');
      expect(answer.text).toBe(`{"code":-1000,"msg":"Method ${method} not allowed on ${TICKER_PATH}; use GET."}`);
    });

    it('answers HEAD like GET, without a body', async () => {
      const answer = await get(sim.url, COINS_PATH, { method: 'HEAD' });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe('');
      expect(Number(answer.headers.get('content-length'))).toBeGreaterThan(1000);
    });
  });
});

describe('row "weight budget": per IP, sliding window; X-SW-Used-Weight on every answer', () => {
  let sim: TestSimulator;
  beforeEach(async () => {
    sim = await startTestSimulator({ coins: 60 });
  });
  afterEach(() => sim.close());

  const used = async (path: string, init?: RequestInit): Promise<number> => Number((await get(sim.url, path, init)).headers.get(USED_WEIGHT_HEADER));

  it('counts 5 for coins and 2 for tickers (spec 8), and reports the total', async () => {
    expect(await used(COINS_PATH)).toBe(5);
    expect(await used(TICKER_PATH)).toBe(7);
    expect(await used(`${TICKER_PATH}?symbol=BTCUSDT`)).toBe(9);
  });

  it('carries the header on errors, 404s and 405s too, which count as well', async () => {
    expect(await used(`${TICKER_PATH}?symbol=NOPEUSDT`)).toBe(2);
    expect(await used('/nowhere')).toBe(3);
    expect(await used(COINS_PATH, { method: 'POST' })).toBe(8);
  });

  it('lets weight leave the window as it slides, request by request', async () => {
    expect(await used(COINS_PATH)).toBe(5);
    sim.clock.advance(4_000);
    expect(await used(COINS_PATH)).toBe(10);
    sim.clock.advance(6_000);
    expect(await used(TICKER_PATH)).toBe(7);
    sim.clock.advance(4_000);
    expect(await used(TICKER_PATH)).toBe(4);
  });

  it('keeps one budget per client IP', async () => {
    const a = await getFrom('127.0.0.2', `${sim.url}${COINS_PATH}`);
    const b = await getFrom('127.0.0.3', `${sim.url}${COINS_PATH}`);
    const a2 = await getFrom('127.0.0.2', `${sim.url}${TICKER_PATH}?symbol=BTCUSDT`);
    expect([a, b, a2].map((x) => x.headers.get(USED_WEIGHT_HEADER))).toEqual(['5', '5', '7']);
  });

  it('does not count the admin API, nor send the header there', async () => {
    const state = await get(sim.url, '/-/sim/state');
    expect(state.headers.get(USED_WEIGHT_HEADER)).toBeNull();
    expect(await used(COINS_PATH)).toBe(5);
  });
});

describe('row "budget exceeded": 429 with Retry-After and -1003; repeated abuse while limited: 418', () => {
  let sim: TestSimulator;
  beforeEach(async () => {
    sim = await startTestSimulator({ coins: 60, weightLimit: { max: 12, windowMs: 10_000 }, banAfter: 2, banMs: 30_000 });
  });
  afterEach(() => sim.close());

  const TOO_MUCH = '{"code":-1003,"msg":"Too much request weight used; current limit is 12 request weight per 10000 ms. Please slow down."}';

  it('refuses a request that would pass the budget, telling in whole seconds when enough weight frees', async () => {
    await get(sim.url, COINS_PATH);
    sim.clock.advance(3_000);
    await get(sim.url, COINS_PATH);
    const refused = await get(sim.url, COINS_PATH);
    expect(refused.status).toBe(429);
    expect(refused.text).toBe(TOO_MUCH);
    expect(refused.headers.get('retry-after')).toBe('7');
    expect(refused.headers.get(USED_WEIGHT_HEADER)).toBe('10');
    // A lighter request still fits: 10 + 2 <= 12.
    expect((await get(sim.url, TICKER_PATH)).status).toBe(200);
  });

  it('rounds Retry-After up and never below 1', async () => {
    await get(sim.url, COINS_PATH);
    await get(sim.url, COINS_PATH);
    sim.clock.advance(9_999);
    const refused = await get(sim.url, COINS_PATH);
    expect(refused.headers.get('retry-after')).toBe('1');
  });

  it('adds no weight for refused requests, and serves again once the window has moved', async () => {
    await get(sim.url, COINS_PATH);
    await get(sim.url, COINS_PATH);
    expect((await get(sim.url, COINS_PATH)).status).toBe(429);
    sim.clock.advance(10_000);
    const again = await get(sim.url, COINS_PATH);
    expect([again.status, again.headers.get(USED_WEIGHT_HEADER)]).toEqual([200, '5']);
  });

  it('bans a client that keeps asking while refused (more than banAfter times), for banMs', async () => {
    await get(sim.url, COINS_PATH);
    await get(sim.url, COINS_PATH);
    expect((await get(sim.url, COINS_PATH)).status).toBe(429);
    expect((await get(sim.url, COINS_PATH)).status).toBe(429);
    const banned = await get(sim.url, COINS_PATH);
    expect(banned.status).toBe(418);
    expect(banned.headers.get('retry-after')).toBe('30');
    expect(JSON.parse(banned.text)).toEqual({ code: -1003, msg: `Way too much request weight used; IP banned until ${sim.clock.now() + 30_000}. Please slow down to avoid bans.` });
    sim.clock.advance(20_000);
    const still = await get(sim.url, TICKER_PATH);
    expect([still.status, still.headers.get('retry-after')]).toEqual([418, '10']);
    sim.clock.advance(10_000);
    expect((await get(sim.url, TICKER_PATH)).status).toBe(200);
  });

  it('bans only the abusing IP', async () => {
    for (let i = 0; i < 5; i++) await getFrom('127.0.0.2', `${sim.url}${COINS_PATH}`);
    expect((await getFrom('127.0.0.2', `${sim.url}${COINS_PATH}`)).status).toBe(418);
    expect((await getFrom('127.0.0.3', `${sim.url}${COINS_PATH}`)).status).toBe(200);
  });

  it('forgets budgets and bans on POST /-/sim/reset-limits', async () => {
    for (let i = 0; i < 5; i++) await get(sim.url, COINS_PATH);
    expect((await get(sim.url, COINS_PATH)).status).toBe(418);
    expect(await postJson(sim.url, '/-/sim/reset-limits', {})).toEqual({ status: 200, json: { reset: true } });
    const fresh = await get(sim.url, COINS_PATH);
    expect([fresh.status, fresh.headers.get(USED_WEIGHT_HEADER)]).toEqual([200, '5']);
  });
});
