/** Every fault kind, as a client sees it over real HTTP, and how long faults last. */
import { request, type IncomingMessage } from 'node:http';
import { COINS_PATH, TICKER_PATH, USED_WEIGHT_HEADER } from '../../src/exchange/dialects/spot-v3/wire';
import { get, startTestSimulator, type TestSimulator } from '../support/simulator';
import { waitFor } from '../support/wait';

type Json = Record<string, unknown>;

let sim: TestSimulator;
let normalCoins: string;

beforeAll(async () => {
  sim = await startTestSimulator({ coins: 60, weightLimit: { max: 100_000, windowMs: 10_000 } });
  normalCoins = (await get(sim.url, COINS_PATH)).text;
});
afterEach(() => {
  sim.control.clearFaults();
});
afterAll(() => sim.close());

interface Raw {
  res: IncomingMessage;
  bytes(): Buffer;
  /** Resolves when the response ends or breaks: true when the whole body arrived. */
  done: Promise<boolean>;
}

/** A GET that exposes the response as it streams, for answers that never end or end early. */
function rawGet(url: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const done = new Promise<boolean>((settle) => {
        res.on('error', () => settle(false));
        res.on('close', () => settle(res.complete));
      });
      resolve({ res, bytes: () => Buffer.concat(chunks), done });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('fault kinds', () => {
  it('http_500: an error status with a JSON error body, 500 unless told otherwise', async () => {
    sim.control.addFault({ kind: 'http_500', endpoint: 'coins', count: 1 });
    sim.control.addFault({ kind: 'http_500', status: 503, endpoint: 'tickers', count: 1 });
    const coins = await get(sim.url, COINS_PATH);
    expect([coins.status, coins.text]).toEqual([500, '{"code":-1001,"msg":"Internal Server Error."}']);
    expect(coins.headers.get(USED_WEIGHT_HEADER)).not.toBeNull();
    const tickers = await get(sim.url, TICKER_PATH);
    expect([tickers.status, tickers.text]).toEqual([503, '{"code":-1001,"msg":"Service Unavailable."}']);
  });

  it('delay: the normal answer, ms later', async () => {
    sim.control.addFault({ kind: 'delay', ms: 300, endpoint: 'coins' });
    const started = Date.now();
    const answer = await get(sim.url, COINS_PATH);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect([answer.status, answer.text]).toEqual([200, normalCoins]);
  });

  it('hang: headers and the first bytes of the body, then nothing', async () => {
    sim.control.addFault({ kind: 'hang', bytes: 100, endpoint: 'coins' });
    const raw = await rawGet(`${sim.url}${COINS_PATH}`);
    expect(raw.res.statusCode).toBe(200);
    expect(Number(raw.res.headers['content-length'])).toBe(Buffer.byteLength(normalCoins));
    await waitFor(() => raw.bytes().length === 100, 'the first 100 bytes');
    expect(raw.bytes().toString()).toBe(normalCoins.slice(0, 100));
    expect(raw.res.complete).toBe(false);
    raw.res.destroy();
  });

  it('truncate: part of the body under the full Content-Length, then the connection is cut', async () => {
    sim.control.addFault({ kind: 'truncate', bytes: 1000, endpoint: 'coins' });
    const raw = await rawGet(`${sim.url}${COINS_PATH}`);
    expect(await raw.done).toBe(false);
    expect(raw.bytes().toString()).toBe(normalCoins.slice(0, 1000));
    expect(Number(raw.res.headers['content-length'])).toBe(Buffer.byteLength(normalCoins));
  });

  it('truncate: half the body by default; fetch reports the cut', async () => {
    sim.control.addFault({ kind: 'truncate', endpoint: 'tickers' });
    const res = await fetch(`${sim.url}${TICKER_PATH}`);
    await expect(res.text()).rejects.toThrow();
  });

  it('invalid_json: HTTP 200, application/json, a body that does not parse', async () => {
    sim.control.addFault({ kind: 'invalid_json', endpoint: 'all' });
    for (const path of [COINS_PATH, TICKER_PATH, `${TICKER_PATH}?symbol=BTCUSDT`]) {
      const answer = await get(sim.url, path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(() => JSON.parse(answer.text)).toThrow(SyntaxError);
    }
  });

  it('wrong_shape: HTTP 200 with an envelope instead of the resource', async () => {
    sim.control.addFault({ kind: 'wrong_shape' });
    const answer = await get(sim.url, COINS_PATH);
    expect([answer.status, answer.text]).toEqual([200, '{"code":"200","msg":"success","data":null}']);
  });

  it('html: a proxy error page, text/html, 502', async () => {
    sim.control.addFault({ kind: 'html' });
    const answer = await get(sim.url, TICKER_PATH);
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.text).toContain('<title>502 Bad Gateway</title>');
  });

  it('rate_limit: 429 with Retry-After and -1003, the code as a number or as a string', async () => {
    sim.control.addFault({ kind: 'rate_limit', count: 1 });
    const numeric = await get(sim.url, COINS_PATH);
    expect([numeric.status, numeric.headers.get('retry-after')]).toEqual([429, '10']);
    expect((JSON.parse(numeric.text) as Json).code).toBe(-1003);
    sim.control.addFault({ kind: 'rate_limit', retry_after: 3, code_as_string: true, count: 1 });
    const text = await get(sim.url, COINS_PATH);
    expect([text.status, text.headers.get('retry-after')]).toEqual([429, '3']);
    expect((JSON.parse(text.text) as Json).code).toBe('-1003');
  });

  it('ban: 418 with Retry-After', async () => {
    sim.control.addFault({ kind: 'ban', endpoint: 'tickers' });
    const answer = await get(sim.url, TICKER_PATH);
    expect([answer.status, answer.headers.get('retry-after')]).toEqual([418, '60']);
    expect((JSON.parse(answer.text) as Json).code).toBe(-1003);
  });

  it('empty: HTTP 200 with []', async () => {
    sim.control.addFault({ kind: 'empty' });
    const answer = await get(sim.url, COINS_PATH);
    expect([answer.status, answer.text]).toEqual([200, '[]']);
  });

  it('malformed (coins): broken records spread among good ones, the same on every request', async () => {
    sim.control.addFault({ kind: 'malformed', records: 8, endpoint: 'coins' });
    const first = await get(sim.url, COINS_PATH);
    expect((await get(sim.url, COINS_PATH)).text).toBe(first.text);
    const got = JSON.parse(first.text) as unknown[];
    const normal = JSON.parse(normalCoins) as Json[];
    expect(got).toHaveLength(normal.length);
    const changed = got.map((c, i) => [c, normal[i]] as const).filter(([c, n]) => JSON.stringify(c) !== JSON.stringify(n));
    expect(changed).toHaveLength(8);
    const nets = (c: unknown): Json[] => ((c as Json).networkList as Json[] | null) ?? [];
    expect(got.some((c) => typeof c === 'string')).toBe(true);
    expect(got.some((c) => typeof c === 'object' && (c as Json).networkList === null)).toBe(true);
    expect(got.some((c) => typeof c === 'object' && !('coin' in (c as Json)))).toBe(true);
    expect(got.some((c) => nets(c).some((n) => n.depositEnable === 'yes'))).toBe(true);
    expect(got.some((c) => nets(c).some((n) => !('network' in n)))).toBe(true);
    expect(got.some((c) => nets(c).some((n) => typeof n.withdrawFee === 'number'))).toBe(true);
    expect(got.some((c) => nets(c).some((n) => n.minConfirm === '12'))).toBe(true);
    expect(got.some((c) => nets(c).some((n) => n.isDefault === null))).toBe(true);
  });

  it('malformed (tickers): null prices, wrong types, a number for a record, a missing symbol', async () => {
    sim.control.addFault({ kind: 'malformed', records: 6, endpoint: 'tickers' });
    const got = JSON.parse((await get(sim.url, TICKER_PATH)).text) as unknown[];
    const objects = got.filter((t): t is Json => typeof t === 'object' && t !== null);
    expect(got).toContain(42);
    expect(objects.some((t) => t.lastPrice === null)).toBe(true);
    expect(objects.some((t) => t.count === 'many')).toBe(true);
    expect(objects.some((t) => !('symbol' in t))).toBe(true);
    expect(objects.some((t) => typeof t.openTime === 'string')).toBe(true);
    expect(objects.some((t) => typeof t.priceChange === 'number')).toBe(true);
    expect(objects.filter((t) => typeof t.lastPrice === 'string').length).toBe(got.length - 2);
    const one = JSON.parse((await get(sim.url, `${TICKER_PATH}?symbol=BTCUSDT`)).text) as Json;
    expect(one.symbol).toBe('BTCUSDT');
    expect(one.lastPrice).toBeNull();
  });

  it('huge: a valid JSON array of exactly `bytes` bytes, streamed without a Content-Length', async () => {
    sim.control.addFault({ kind: 'huge', bytes: 3_000_000, endpoint: 'coins', count: 1 });
    const res = await fetch(`${sim.url}${COINS_PATH}`);
    expect(res.headers.get('content-length')).toBeNull();
    const text = await res.text();
    expect(Buffer.byteLength(text)).toBe(3_000_000);
    expect((JSON.parse(text) as unknown[]).length).toBeGreaterThan(10_000);
  });

  it('huge: 64 MiB by default, which a client can stop reading at its cap', async () => {
    sim.control.addFault({ kind: 'huge', endpoint: 'tickers', count: 1 });
    const res = await fetch(`${sim.url}${TICKER_PATH}`);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let read = 0;
    while (read < 1_048_576) {
      const chunk = await reader.read();
      if (chunk.done) break;
      read += chunk.value.length;
    }
    await reader.cancel();
    expect(read).toBeGreaterThanOrEqual(1_048_576);
    expect(sim.control.state().faults).toEqual([]);
  });
});

describe('fault scope and lifetime', () => {
  it('applies to its endpoint only; `all` applies to both', async () => {
    sim.control.addFault({ kind: 'empty', endpoint: 'tickers' });
    expect((await get(sim.url, COINS_PATH)).text).toBe(normalCoins);
    expect((await get(sim.url, TICKER_PATH)).text).toBe('[]');
    sim.control.clearFaults();
    sim.control.addFault({ kind: 'empty', endpoint: 'all' });
    expect((await get(sim.url, COINS_PATH)).text).toBe('[]');
    expect((await get(sim.url, TICKER_PATH)).text).toBe('[]');
  });

  it('never touches unknown paths', async () => {
    sim.control.addFault({ kind: 'empty', endpoint: 'all' });
    expect((await get(sim.url, '/api/v3/other')).status).toBe(404);
  });

  it('lasts `count` requests', async () => {
    sim.control.addFault({ kind: 'http_500', endpoint: 'coins', count: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(sim.url, COINS_PATH)).status);
    expect(statuses).toEqual([500, 500, 200]);
  });

  it('lasts `for` a time on the injected clock', async () => {
    sim.control.addFault({ kind: 'http_500', endpoint: 'coins', for: '30s' });
    sim.clock.advance(29_999);
    expect((await get(sim.url, COINS_PATH)).status).toBe(500);
    sim.clock.advance(1);
    expect((await get(sim.url, COINS_PATH)).status).toBe(200);
  });

  it('lasts until cleared otherwise; the newest matching fault answers', async () => {
    sim.control.addFault({ kind: 'http_500', endpoint: 'coins' });
    sim.control.addFault({ kind: 'empty', endpoint: 'all' });
    expect((await get(sim.url, COINS_PATH)).text).toBe('[]');
    expect(sim.control.clearFaults('all')).toBe(2);
    expect((await get(sim.url, COINS_PATH)).text).toBe(normalCoins);
  });

  it('clears one endpoint\'s faults only', async () => {
    sim.control.addFault({ kind: 'http_500', endpoint: 'coins' });
    sim.control.addFault({ kind: 'http_500', endpoint: 'tickers' });
    expect(sim.control.clearFaults('tickers')).toBe(1);
    expect((await get(sim.url, TICKER_PATH)).status).toBe(200);
    expect((await get(sim.url, COINS_PATH)).status).toBe(500);
  });
});

describe('close() with answers in flight', () => {
  it('ends hung, delayed and streaming answers and resolves promptly', async () => {
    const other = await startTestSimulator({ coins: 60 });
    other.control.addFault({ kind: 'hang', endpoint: 'coins' });
    other.control.addFault({ kind: 'delay', ms: 600_000, endpoint: 'tickers', count: 1 });
    const hung = await rawGet(`${other.url}${COINS_PATH}`);
    const delayed = fetch(`${other.url}${TICKER_PATH}`).then((r) => r.status, () => 'cut');
    // The delay fault counts one request and leaves the board once that request has arrived.
    await waitFor(() => other.control.state().faults.length === 1, 'the delayed request to arrive');
    await other.close();
    expect(await hung.done).toBe(false);
    expect(await delayed).toBe('cut');
  });
});
