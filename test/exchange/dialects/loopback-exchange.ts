import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { ExchangeClient, type ClientOptions } from '../../../src/exchange/client';
import type { Dialect } from '../../../src/exchange/dialect';
import { closeServer, listenLoopback } from '../../support/loopback';

/**
 * What the test exchanges of the dialect tests share (recorded.ts: public answers by path;
 * signed-exchange.ts: an exchange that checks signatures): a server on loopback (port 0)
 * recording what it is asked, the recorded answers on disk, and the real client against it.
 */

/** One answer of the exchange (status 200 when left out). */
export interface Answer {
  status?: number;
  body: string;
  headers?: Record<string, string>;
}

/** What the exchange is asked: the path with its query, and the headers. */
export interface Asked {
  path: string;
  headers: IncomingHttpHeaders;
}

/** A recorded answer of a dialect's exchange, as its text (`<name>/fixtures/<file>`, sources in SOURCES.md there). */
export function fixture(dialect: string, file: string): string {
  return readFileSync(join(__dirname, dialect, 'fixtures', file), 'utf8');
}

/** An exchange on loopback: `respond` says what it answers to each request. */
export abstract class LoopbackExchange {
  readonly asked: Asked[] = [];
  url = '';
  private server: Server | undefined;

  protected abstract respond(asked: Asked): Answer;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const asked = { path: req.url ?? '/', headers: req.headers };
      this.asked.push(asked);
      const { status, body, headers } = this.respond(asked);
      res.writeHead(status ?? 200, { 'content-type': 'application/json', ...headers });
      res.end(body);
    });
    this.url = await listenLoopback(this.server);
    return this;
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }
}

/** The real client of `dialect` at `url`, no retries (each answer counts once); `over` changes any option. */
export function loopbackClient(dialect: Dialect, url: string, over: Partial<ClientOptions> = {}): ExchangeClient {
  return new ExchangeClient({
    exchange: dialect.name,
    dialect,
    baseUrl: url,
    timeoutMs: 2_000,
    maxBodyBytes: 1 << 20,
    retries: { max: 0, baseDelayMs: 10, maxDelayMs: 50 },
    weightLimit: { max: 1_000, windowMs: 10_000 },
    ...over,
  });
}
