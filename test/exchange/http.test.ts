import { createServer, type Server } from 'node:http';
import { Agent } from 'undici';
import { get } from '../../src/exchange/http';

/** A loopback server whose handler is given; closed after each test. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

describe('exchange GET deadline', () => {
  let server: Server | undefined;
  const dispatcher = new Agent();
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });
  afterAll(() => dispatcher.close());

  it('an answer that arrived while our own event loop was blocked past the timeout is read, not a timeout (no false ExchangeDown)', async () => {
    const s = await serve((_req, res) => {
      res.end('[]');
      const until = Date.now() + 600;
      while (Date.now() < until) {
        // a stalled event loop, as a large flush once caused
      }
    });
    server = s.server;
    const answer = await get({ dispatcher, origin: s.origin, path: '/api/v3/coins', endpoint: 'coins', headers: {}, timeoutMs: 200, maxBodyBytes: 1000 });
    expect({ status: answer.status, text: answer.text }).toEqual({ status: 200, text: '[]' });
  });

  it('an exchange that does not answer still times out', async () => {
    const s = await serve(() => undefined);
    server = s.server;
    await expect(get({ dispatcher, origin: s.origin, path: '/api/v3/coins', endpoint: 'coins', headers: {}, timeoutMs: 200, maxBodyBytes: 1000 })).rejects.toMatchObject({
      kind: 'timeout',
      message: 'coins: no complete answer within 200 ms',
    });
  });
});
