/**
 * An error inside an HTTP 200 answer (`{"code":-1003,"msg":...}`, dialects.md rule 8): the error
 * names the exchange's code and message, and a rate-limit code makes the client back off (on
 * its injected clock) before it asks again, Retry-After or not.
 */
import { createServer, type Server } from 'node:http';
import { manualClock } from '../../src/lib/clock';
import { closeServer, listenLoopback } from '../support/loopback';
import { testClient } from './test-client';

const T0 = Date.UTC(2026, 0, 1);

let server: Server;
let url: string;
/** What the server answers next (first in, first out); then an empty coin list. */
const answers: string[] = [];
/** When (on the test's clock) each request arrived. */
const arrived: number[] = [];
const clock = manualClock(T0);

beforeAll(async () => {
  server = createServer((_req, res) => {
    arrived.push(clock.now());
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(answers.shift() ?? '[]');
  });
  url = await listenLoopback(server);
});
afterAll(() => closeServer(server));
beforeEach(() => {
  answers.length = 0;
  arrived.length = 0;
});

describe('an error envelope answered with HTTP 200', () => {
  it('names the code and message, and backs off a rate-limit code: nothing is sent until the pause is over', async () => {
    const c = testClient(url, { clock, random: () => 0 });
    answers.push('{"code":-1003,"msg":"Too many requests"}', '{"code":-1003,"msg":"Too many requests"}');
    await expect(c.fetchCoins()).rejects.toMatchObject({ kind: 'rate_limited', code: '-1003', status: 200, message: 'coins: HTTP 200 code -1003: Too many requests' });
    // Equal jitter from one second (random 0: its lower half): 500 ms.
    expect(c.pausedFor()).toBe(500);
    await expect(c.fetchTickers([])).rejects.toMatchObject({ kind: 'rate_limited', message: 'tickers: not sent, the exchange asked for a pause of 1 s' });
    expect(arrived).toEqual([T0]);
    clock.advance(500);
    // Refused again: the pause doubles.
    await expect(c.fetchCoins()).rejects.toMatchObject({ kind: 'rate_limited', code: '-1003' });
    expect(c.pausedFor()).toBe(1000);
    clock.advance(1000);
    expect((await c.fetchCoins()).records).toEqual([]);
    expect(arrived).toEqual([T0, T0 + 500, T0 + 1500]);
    // An answer taken: the next refusal starts from one second again.
    answers.push('{"code":-1003,"msg":"Too many requests"}');
    await expect(c.fetchCoins()).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(c.pausedFor()).toBe(500);
    clock.advance(500);
    await c.close();
  });

  it('names another code and message as the exchange refusing, without a pause', async () => {
    const c = testClient(url, { clock });
    answers.push('{"code":-1121,"msg":"Invalid symbol."}');
    await expect(c.fetchCoins()).rejects.toMatchObject({ code: '-1121', message: 'coins: HTTP 200 code -1121: Invalid symbol.' });
    expect(c.pausedFor()).toBe(0);
    await c.close();
  });

  it('backs off a -1003 sent with another status than 429 too', async () => {
    const other = createServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"code":"-1003","msg":"Way too much request weight used."}');
    });
    const otherUrl = await listenLoopback(other);
    const c = testClient(otherUrl, { clock, random: () => 1 });
    await expect(c.fetchCoins()).rejects.toMatchObject({ kind: 'rate_limited', code: '-1003', message: 'coins: HTTP 400 code -1003: Way too much request weight used.' });
    expect(c.pausedFor()).toBe(1000);
    clock.advance(1000);
    await c.close();
    await closeServer(other);
  });
});
