import type { Silence } from '../../src/alerts/silence';
import { createApp, type HttpSource } from '../../src/http/app';
import type { HistorySource } from '../../src/http/history-api';
import { listen, type Listening } from '../../src/http/server';
import type { StatusView } from '../../src/http/status-page';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const DAY = 86_400_000;

/** The HTTP surface over an in-memory source: silences kept in a map, a status page that can be made to throw. */
async function serve(over: Partial<HttpSource> = {}): Promise<{ url: string; silences: Map<string, Silence>; errors: unknown[]; close(): Promise<void> }> {
  const silences = new Map<string, Silence>();
  const errors: unknown[] = [];
  const http: Listening = await listen(createApp({
    ready: () => true,
    metrics: { contentType: 'text/plain', render: async () => '', renderGzip: async () => [] },
    api: {
      alerts: () => [],
      changes: () => [],
      state: () => ({ data: { exchanges: [], routes: [] }, next: null }),
      deadLetters: () => [],
      silences: { list: () => [...silences.values()], save: (s) => void silences.set(s.id, s) },
      now: () => NOW,
    },
    reload: async () => ({ ok: true }),
    statusView: () => ({ generatedAt: NOW, exchanges: [], exchangesTotal: 0, disabled: [], disabledTotal: 0, alerts: [], alertsTotal: 0, changes: [], changesTotal: { n: 0, atLeast: false } }) satisfies StatusView,
    onError: (err) => errors.push(err),
    ...over,
  }), '127.0.0.1', 0);
  return { url: http.url, silences, errors, close: () => http.close() };
}

async function call(url: string, init?: RequestInit): Promise<{ status: number; type: string | null; body: unknown }> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), body: JSON.parse(text) as unknown };
}

const post = (body: string): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('errors of the HTTP surface', () => {
  let s: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(() => s.close());

  it('answers a malformed JSON body with 400 and a JSON error', async () => {
    expect(await call(`${s.url}/api/v1/silences`, post('{"matchers":'))).toEqual({ status: 400, type: 'application/json; charset=utf-8', body: { status: 'error', error: 'body is not valid JSON' } });
  });

  it('answers a body over the cap with 413 and a JSON error', async () => {
    expect(await call(`${s.url}/api/v1/silences`, post(JSON.stringify({ comment: 'x'.repeat(70_000) })))).toEqual({ status: 413, type: 'application/json; charset=utf-8', body: { status: 'error', error: 'body larger than 65536 bytes' } });
  });

  it('answers an unknown route with 404 and a JSON error', async () => {
    expect(await call(`${s.url}/nope`)).toEqual({ status: 404, type: 'application/json; charset=utf-8', body: { status: 'error', error: 'not found' } });
    expect(await call(`${s.url}/api/v1/nope`, { method: 'PUT' })).toEqual({ status: 404, type: 'application/json; charset=utf-8', body: { status: 'error', error: 'not found' } });
  });

  it('answers a thrown error with 500 and a JSON error without its stack or paths, and tells it once', async () => {
    const boom = new Error('boom in /srv/spotwatch/dist/http/app.js');
    const t = await serve({ statusView: () => { throw boom; } });
    try {
      expect(await call(`${t.url}/`)).toEqual({ status: 500, type: 'application/json; charset=utf-8', body: { status: 'error', error: 'internal error' } });
      expect(t.errors).toEqual([boom]);
    } finally {
      await t.close();
    }
  });

  it('answers a parameter given twice or with brackets with 400, on every API route', async () => {
    const bad = (error: string) => ({ status: 400, type: 'application/json; charset=utf-8', body: { status: 'error', error } });
    expect(await call(`${s.url}/api/v1/alerts?limit=1&limit=2`)).toEqual(bad('limit: give this parameter once'));
    expect(await call(`${s.url}/api/v1/state?offset=1&offset=1`)).toEqual(bad('offset: give this parameter once'));
    expect(await call(`${s.url}/api/v1/changes?coin[]=x`)).toEqual(bad('coin[]: brackets are not part of any parameter name; give each parameter once, by its plain name'));
    expect(await call(`${s.url}/api/v1/changes?coin=BTC&coin=ETH`)).toEqual(bad('coin: give this parameter once'));
    expect((await call(`${s.url}/api/v1/changes?coin=BTC&limit=1`)).status).toBe(200);
  });
});

describe('times of an API silence', () => {
  let s: Awaited<ReturnType<typeof serve>>;
  beforeEach(async () => {
    s = await serve();
  });
  afterEach(() => s.close());
  const matchers = [{ name: 'coin', value: 'USDT', isRegex: false }];

  it.each([
    ['9e18', 'endsAt: required, RFC 3339 (or milliseconds since the epoch, up to year 9999)'],
    ['1e400', 'endsAt: required, RFC 3339 (or milliseconds since the epoch, up to year 9999)'],
    ['"+275760-09-13T00:00:00Z"', 'endsAt: required, RFC 3339 (or milliseconds since the epoch, up to year 9999)'],
    ['"tomorrow"', 'endsAt: required, RFC 3339 (or milliseconds since the epoch, up to year 9999)'],
    [String(NOW + 1.5), 'endsAt: required, RFC 3339 (or milliseconds since the epoch, up to year 9999)'],
    [`"${new Date(NOW - 1000).toISOString()}"`, 'endsAt must be in the future'],
    [String(NOW + 367 * DAY), 'a silence lasts at most 366 days'],
  ])('rejects endsAt %s with 400, and the list still reads', async (endsAt, error) => {
    expect(await call(`${s.url}/api/v1/silences`, post(`{"matchers":${JSON.stringify(matchers)},"endsAt":${endsAt}}`))).toEqual({ status: 400, type: 'application/json; charset=utf-8', body: { status: 'error', error } });
    expect(await call(`${s.url}/api/v1/silences`)).toEqual({ status: 200, type: 'application/json; charset=utf-8', body: { status: 'success', data: [] } });
  });

  it('rejects a start after the end, and a start more than 366 days ahead', async () => {
    const send = (startsAt: number, endsAt: number) => call(`${s.url}/api/v1/silences`, post(JSON.stringify({ matchers, startsAt, endsAt })));
    expect((await send(NOW + 2 * DAY, NOW + DAY)).body).toEqual({ status: 'error', error: 'endsAt must be after startsAt' });
    expect((await send(NOW + 400 * DAY, NOW + 401 * DAY)).body).toEqual({ status: 'error', error: 'startsAt: at most 366 days from now' });
  });

  it('takes RFC 3339 with an offset and whole milliseconds, up to 366 days', async () => {
    const a = await call(`${s.url}/api/v1/silences`, post(JSON.stringify({ matchers, endsAt: '2026-11-22T14:30:00+02:00' })));
    const b = await call(`${s.url}/api/v1/silences`, post(JSON.stringify({ matchers, startsAt: NOW + DAY, endsAt: NOW + 367 * DAY })));
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([...s.silences.values()].map((x) => [x.startsAt, x.endsAt])).toEqual([[NOW, Date.UTC(2026, 10, 22, 12, 30)], [NOW + DAY, NOW + 367 * DAY]]);
  });

  it('lists a stored silence whose time cannot be written (from before this validation) instead of failing', async () => {
    s.silences.set('old', { id: 'old', matchers: [{ label: 'coin', pattern: 'X' }], startsAt: NOW, endsAt: 9e18, comment: '', createdBy: '' });
    expect(await call(`${s.url}/api/v1/silences`)).toEqual({ status: 200, type: 'application/json; charset=utf-8', body: { status: 'success', data: [{ id: 'old', matchers: [{ label: 'coin', pattern: 'X' }], startsAt: new Date(NOW).toISOString(), endsAt: null, comment: '', createdBy: '', state: 'active' }] } });
  });
});

describe('the query parameters of /api/v1', () => {
  let s: Awaited<ReturnType<typeof serve>>;
  const asked: unknown[] = [];
  beforeAll(async () => {
    const history: HistorySource = { outages: () => [], totals: () => [], watching: () => new Map(), networks: () => [], network: () => undefined, changes: () => [], now: () => NOW };
    s = await serve({
      history,
      api: {
        alerts: () => [],
        changes: (q) => {
          asked.push(q);
          return [];
        },
        state: () => ({ data: { exchanges: [], routes: [] }, next: null }),
        deadLetters: () => [],
        silences: { list: () => [], save: () => undefined },
        now: () => NOW,
      },
    });
  });
  afterAll(() => s.close());

  // Every /api/v1 route and the parameters README "HTTP endpoints" lists for it.
  it.each([
    ['GET', '/api/v1/alerts', 'limit, offset'],
    ['GET', '/api/v1/changes', 'since, exchange, coin, network, symbol, kind, limit, before'],
    ['GET', '/api/v1/state', 'limit, offset'],
    ['GET', '/api/v1/dead-letters', 'limit, before'],
    ['GET', '/api/v1/deadletters', 'limit, before'],
    ['GET', '/api/v1/notices', 'exchange, kind, coin, since, limit'],
    ['GET', '/api/v1/outages', 'exchange, coin, network, direction, since, limit'],
    ['GET', '/api/v1/availability', 'exchange, coin, network, window'],
    ['GET', '/api/v1/silences', null],
    ['DELETE', '/api/v1/silences/abc', null],
  ])('%s %s refuses a parameter it does not take with 400 naming it', async (method, path, takes) => {
    const it = takes === null ? 'takes no parameter' : `takes ${takes}`;
    expect(await call(`${s.url}${path}?colour=red`, { method })).toEqual({ status: 400, type: 'application/json; charset=utf-8', body: { status: 'error', error: `colour: not a parameter of ${method} ${path} (it ${it})` } });
  });

  it('POST /api/v1/silences refuses a parameter too', async () => {
    expect(await call(`${s.url}/api/v1/silences?dry_run=1`, post('{}'))).toEqual({ status: 400, type: 'application/json; charset=utf-8', body: { status: 'error', error: 'dry_run: not a parameter of POST /api/v1/silences (it takes no parameter)' } });
  });

  it('filters /api/v1/changes by symbol (it was ignored, and every change answered)', async () => {
    asked.length = 0;
    expect((await call(`${s.url}/api/v1/changes?symbol=BTCUSDT&exchange=main`)).status).toBe(200);
    expect(asked).toEqual([{ limit: 100, exchange: 'main', symbol: 'BTCUSDT' }]);
  });

  it.each(['/api/v1/alerts', '/api/v1/changes', '/api/v1/state', '/api/v1/dead-letters', '/api/v1/notices', '/api/v1/outages'])('%s refuses limit=5000 with 400 (it was cut to 1000) and takes 1000', async (path) => {
    expect(await call(`${s.url}${path}?limit=5000`)).toEqual({ status: 400, type: 'application/json; charset=utf-8', body: { status: 'error', error: 'limit: a whole number from 1 to 1000' } });
    expect((await call(`${s.url}${path}?limit=1000`)).status).toBe(200);
  });
});

describe('the Content-Type of a JSON body', () => {
  let s: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(() => s.close());
  const body = JSON.stringify({ matchers: { coin: 'USDT' }, endsAt: NOW + DAY });

  it.each([
    [{ 'content-type': 'application/x-www-form-urlencoded' }, 'got application/x-www-form-urlencoded'],
    [{ 'content-type': 'text/plain;charset=UTF-8' }, 'got text/plain'],
  ])('answers a JSON body sent as %j with 415 saying what is wrong (it was "expected a JSON object")', async (headers, got) => {
    expect(await call(`${s.url}/api/v1/silences`, { method: 'POST', headers, body })).toEqual({ status: 415, type: 'application/json; charset=utf-8', body: { status: 'error', error: `Content-Type must be application/json (${got})` } });
    expect(s.silences.size).toBe(0);
  });

  it('answers a body sent without any Content-Type with 415', async () => {
    const { request } = await import('node:http');
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${s.url}/api/v1/silences`, { method: 'POST', headers: { 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(answer).toEqual({ status: 415, text: '{"status":"error","error":"Content-Type must be application/json (none was sent)"}' });
  });

  it('answers a POST without a body (Content-Length: 0, as curl -X POST sends) with what is missing, not 415', async () => {
    const answer = await call(`${s.url}/api/v1/silences`, { method: 'POST', headers: { 'content-length': '0' } });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).not.toContain('Content-Type');
  });

  it('takes application/json with a charset', async () => {
    expect((await call(`${s.url}/api/v1/silences`, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body })).status).toBe(201);
  });
});

describe('a known path asked with a method it does not take', () => {
  let s: Awaited<ReturnType<typeof serve>>;
  let seen: string[];
  beforeAll(async () => {
    seen = [];
    const history: HistorySource = {
      outages: () => [],
      totals: () => [],
      watching: () => new Map(),
      networks: () => [],
      network: () => undefined,
      changes: (q) => {
        seen.push(`changes since ${String(q.since)}`);
        return [];
      },
      now: () => NOW,
    };
    s = await serve({
      history,
      api: {
        alerts: () => [],
        changes: (q) => {
          seen.push(`changes since ${String(q.since)}`);
          return [];
        }, state: () => ({ data: { exchanges: [], routes: [] }, next: null }), deadLetters: () => [], silences: { list: () => [], save: () => undefined }, now: () => NOW } });
  });
  afterAll(() => s.close());

  // Every path of the daemon's HTTP surface (DESIGN.md section 4 and the history API), and what it takes.
  it.each([
    ['/', 'POST', 'GET, HEAD, OPTIONS'],
    ['/metrics', 'POST', 'GET, HEAD, OPTIONS'],
    ['/healthz', 'DELETE', 'GET, HEAD, OPTIONS'],
    ['/readyz', 'PUT', 'GET, HEAD, OPTIONS'],
    ['/status.css', 'POST', 'GET, HEAD, OPTIONS'],
    ['/status.js', 'POST', 'GET, HEAD, OPTIONS'],
    ['/favicon.svg', 'POST', 'GET, HEAD, OPTIONS'],
    ['/-/reload', 'GET', 'POST, OPTIONS'],
    ['/api/v1/alerts', 'POST', 'GET, HEAD, OPTIONS'],
    ['/api/v1/changes', 'DELETE', 'GET, HEAD, OPTIONS'],
    ['/api/v1/state', 'POST', 'GET, HEAD, OPTIONS'],
    ['/api/v1/dead-letters', 'POST', 'GET, HEAD, OPTIONS'],
    ['/api/v1/deadletters', 'POST', 'GET, HEAD, OPTIONS'],
    ['/api/v1/silences', 'PUT', 'GET, HEAD, POST, OPTIONS'],
    ['/api/v1/silences/abc', 'GET', 'DELETE, OPTIONS'],
    ['/api/v1/outages', 'POST', 'GET, HEAD, OPTIONS'],
    ['/api/v1/availability', 'POST', 'GET, HEAD, OPTIONS'],
    ['/feed.atom', 'POST', 'GET, HEAD, OPTIONS'],
    ['/badge/main/USDT/TRX.svg', 'POST', 'GET, HEAD, OPTIONS'],
  ])('%s with %s answers 405 with Allow: %s', async (path, method, allow) => {
    const res = await fetch(`${s.url}${path}`, { method });
    expect([res.status, res.headers.get('allow'), res.headers.get('content-type')]).toEqual([405, allow, 'application/json; charset=utf-8']);
    expect(await res.json()).toEqual({ status: 'error', error: `method ${method} not allowed on ${path} (allowed: ${allow})` });
    const options = await fetch(`${s.url}${path}`, { method: 'OPTIONS' });
    expect([options.status, options.headers.get('allow')]).toEqual([204, allow]);
  });

  it('still answers an unknown path with 404, and a known one with its own method', async () => {
    expect((await fetch(`${s.url}/api/v1/nope`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${s.url}/healthz`, { method: 'HEAD' })).status).toBe(200);
  });

  it('answers a since beyond any time with 400, without asking the store', async () => {
    seen.length = 0;
    for (const path of ['/api/v1/changes', '/api/v1/outages']) {
      expect(await call(`${s.url}${path}?since=99999999999999999999`)).toEqual({ status: 400, type: 'application/json; charset=utf-8', body: { status: 'error', error: 'since: use RFC 3339 or milliseconds since the epoch' } });
    }
    expect(await call(`${s.url}/api/v1/changes?before=99999999999999999999`)).toEqual({ status: 400, type: 'application/json; charset=utf-8', body: { status: 'error', error: 'before: the `next` cursor of a previous page' } });
    expect(seen).toEqual([]);
    expect((await call(`${s.url}/api/v1/changes?since=253402300799999`)).status).toBe(200);
    expect(seen).toEqual(['changes since 253402300799999']);
  });
});
