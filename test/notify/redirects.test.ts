import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Alert } from '../../src/alerts/alert';
import { buildDelivery } from '../../src/notify/pipeline/build-delivery';
import { alertmanagerNotifier } from '../../src/notify/alertmanager/alertmanager';
import { MAX_REDIRECTS } from '../../src/notify/kit/http-post';
import { NotifyError } from '../../src/notify/notifier';
import { sign, webhookNotifier } from '../../src/notify/webhook/webhook';
import { receiverDeps } from '../support/receiver-deps';

/** A connection pool per test, closed after it, as each notifier used to open and close its own. */
let deps: ReturnType<typeof receiverDeps>;
beforeEach(() => {
  deps = receiverDeps();
});
afterEach(() => deps.close());

const firing: Alert = {
  fingerprint: '0123456789abcdef', ruleId: 'r', entity: 'e',
  labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: 'USDT' },
  annotations: { summary: 's' }, status: 'firing', activeAt: 0, startsAt: Date.UTC(2026, 0, 1), endsAt: null, lastActiveAt: 0, lastNotifiedAt: 0, value: 1, event: false,
};

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

/** A loopback server answering by path: `routes[path]` is [status, Location?]; anything else 200. */
class RedirectServer {
  readonly seen: Seen[] = [];
  url = '';
  private server: Server | undefined;

  constructor(private readonly routes: Record<string, [number, string?]>) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '';
        this.seen.push({ method: req.method ?? '', path, headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
        const [status, location] = this.routes[path] ?? [200];
        if (location !== undefined) res.setHeader('location', location.replace('{self}', this.url));
        res.statusCode = status;
        res.end(status >= 300 ? 'moved' : '');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (s === undefined) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

const delivery = buildDelivery('hook', { alertname: 'WithdrawDisabled' }, [firing], 'http://sw', 1000);

async function send(url: string, headers?: Record<string, string>): Promise<unknown> {
  const hook = webhookNotifier({ name: 'hook', url, timeoutMs: 2000, secret: 'k', headers }, deps);
  try {
    await hook.send(delivery);
    return 'delivered';
  } catch (err) {
    return err;
  } finally {
    await hook.close?.();
  }
}

describe('webhook redirects', () => {
  let server: RedirectServer;
  let other: RedirectServer;
  beforeEach(async () => {
    other = await new RedirectServer({}).start();
    server = await new RedirectServer({
      '/moved': [301, '/hook'],
      '/found': [302, '/hook?x=1'],
      '/temporary': [307, '{self}/hook'],
      '/permanent': [308, 'hook'],
      '/see-other': [303, '/result'],
      '/no-location': [301],
      '/loop-a': [301, '/loop-b'],
      '/loop-b': [302, '/loop-a'],
      '/chain/0': [301, '/chain/1'],
      '/chain/1': [301, '/chain/2'],
      '/chain/2': [301, '/chain/3'],
      '/chain/3': [301, '/chain/4'],
      '/to-https': [301, 'https://127.0.0.1:1/hook'],
      '/elsewhere': [307, `${other.url}/hook`],
    }).start();
  });
  afterEach(async () => {
    await server.stop();
    await other.stop();
  });

  it.each([
    ['/moved', 301, '/hook'],
    ['/found', 302, '/hook?x=1'],
    ['/temporary', 307, '/hook'],
    ['/permanent', 308, '/hook'],
  ])('follows %s (HTTP %d) with the same POST, body and headers', async (from, _status, to) => {
    expect(await send(`${server.url}${from}`)).toBe('delivered');
    expect(server.seen.map((s) => [s.method, s.path])).toEqual([['POST', from], ['POST', to]]);
    const [first, second] = server.seen as [Seen, Seen];
    expect(second.raw).toBe(first.raw);
    expect(JSON.parse(second.raw)).toMatchObject({ version: '4', receiver: 'hook', alerts: [{ fingerprint: '0123456789abcdef' }] });
    expect(second.headers['x-spotwatch-signature']).toBe(sign('k', second.raw));
    expect(second.headers['idempotency-key']).toBe(delivery.idempotencyKey);
  });

  it(`follows up to ${MAX_REDIRECTS} redirects, and says so past them`, async () => {
    expect(await send(`${server.url}/chain/1`)).toBe('delivered');
    expect(server.seen.map((s) => s.path)).toEqual(['/chain/1', '/chain/2', '/chain/3', '/chain/4']);
    server.seen.length = 0;
    const err = await send(`${server.url}/chain/0`);
    expect(err).toBeInstanceOf(NotifyError);
    expect(err).toMatchObject({ reason: 'client_error', retryable: false, message: `webhook redirected more than 3 times (last to ${server.url}/chain/4)` });
    expect(server.seen.map((s) => s.path)).toEqual(['/chain/0', '/chain/1', '/chain/2', '/chain/3']);
  });

  it('reports a redirect loop as one', async () => {
    const err = await send(`${server.url}/loop-a`);
    expect(err).toMatchObject({ reason: 'client_error', retryable: false, message: `webhook redirect loop: HTTP 302 from ${server.url}/loop-b back to ${server.url}/loop-a` });
    expect(server.seen.map((s) => s.path)).toEqual(['/loop-a', '/loop-b']);
  });

  it('never follows a redirect to another scheme', async () => {
    const err = await send(`${server.url}/to-https`);
    expect(err).toMatchObject({
      reason: 'client_error',
      retryable: false,
      message: "webhook redirected (HTTP 301) from http:// to https://, which is not followed: set the receiver's url to https://127.0.0.1:1/hook",
    });
    expect(server.seen.map((s) => s.path)).toEqual(['/to-https']);
  });

  it('does not turn a POST into a GET on a 303, and does not count it as delivered', async () => {
    const err = await send(`${server.url}/see-other`);
    expect(err).toMatchObject({ reason: 'client_error', retryable: false, message: 'webhook answered HTTP 303 See Other: not followed (it asks for a GET, which would not deliver the notification)' });
    expect(server.seen.map((s) => [s.method, s.path])).toEqual([['POST', '/see-other']]);
  });

  it('reports a redirect without a Location', async () => {
    expect(await send(`${server.url}/no-location`)).toMatchObject({ reason: 'client_error', retryable: false, message: 'webhook answered HTTP 301 without a Location' });
  });

  it('follows a redirect to another host without the configured headers (they may hold credentials)', async () => {
    expect(await send(`${server.url}/elsewhere`, { 'X-Api-Key': 'secret-token' })).toBe('delivered');
    expect(server.seen[0]?.headers['x-api-key']).toBe('secret-token');
    expect(other.seen.map((s) => [s.method, s.path])).toEqual([['POST', '/hook']]);
    const moved = other.seen[0] as Seen;
    expect(moved.headers['x-api-key']).toBeUndefined();
    expect(moved.raw).toBe(server.seen[0]?.raw);
    expect(moved.headers['x-spotwatch-signature']).toBe(sign('k', moved.raw));
  });
});

describe('a user and password in a receiver\'s URL', () => {
  it('are sent as HTTP Basic authentication, and not past a redirect to another host', async () => {
    const other = await new RedirectServer({}).start();
    const server = await new RedirectServer({ '/moved': [308, `${other.url}/hook`] }).start();
    try {
      const withUser = (path: string) => server.url.replace('http://', 'http://desk%40ops:p%3Ass@') + path;
      expect(await send(withUser('/hook'))).toBe('delivered');
      expect(server.seen[0]?.headers.authorization).toBe(`Basic ${Buffer.from('desk@ops:p:ss').toString('base64')}`);
      expect(await send(withUser('/moved'))).toBe('delivered');
      expect(other.seen.map((s) => [s.path, s.headers.authorization])).toEqual([['/hook', undefined]]);
      expect(await send(withUser('/hook'), { Authorization: 'Bearer own' })).toBe('delivered');
      expect(server.seen.at(-1)?.headers.authorization).toBe('Bearer own');
    } finally {
      await server.stop();
      await other.stop();
    }
  });
});

describe('alertmanager redirects', () => {
  it('follows a moved Alertmanager with the same POST', async () => {
    const am = await new RedirectServer({ '/old/api/v2/alerts': [308, '/new/api/v2/alerts'] }).start();
    const n = alertmanagerNotifier({ name: 'am', url: `${am.url}/old`, timeoutMs: 2000, maxBodyBytes: 0 }, deps);
    await n.send(buildDelivery('am', {}, [firing], 'http://sw', 1));
    await n.close?.();
    await am.stop();
    expect(am.seen.map((s) => [s.method, s.path])).toEqual([['POST', '/old/api/v2/alerts'], ['POST', '/new/api/v2/alerts']]);
    expect(JSON.parse(am.seen[1]?.raw ?? '')).toEqual([{ labels: firing.labels, annotations: firing.annotations, startsAt: '2026-01-01T00:00:00.000Z', generatorURL: 'http://sw/#0123456789abcdef' }]);
  });
});
