import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { ExchangeClient, type ClientOptions } from '../../../src/exchange/client';
import type { Dialect } from '../../../src/exchange/dialect';
import { ServiceDouble, type ServiceReply, type ServiceRequest } from '../../support/doubles/service';

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

/** The HTTP server of a LoopbackExchange: the notify tests' service double, answering as told. */
class Served extends ServiceDouble {
  constructor(private readonly reply: (req: ServiceRequest) => ServiceReply) {
    super();
  }

  protected answer(req: ServiceRequest): ServiceReply {
    return this.reply(req);
  }
}

/** An exchange on loopback: `respond` says what it answers to each request. */
export abstract class LoopbackExchange {
  readonly asked: Asked[] = [];
  private readonly served = new Served((req) => {
    const asked = { path: req.path, headers: req.headers };
    this.asked.push(asked);
    const { status, body, headers } = this.respond(asked);
    return { status: status ?? 200, headers: { 'content-type': 'application/json', ...headers }, body };
  });

  protected abstract respond(asked: Asked): Answer;

  get url(): string {
    return this.served.url;
  }

  async start(): Promise<this> {
    await this.served.start();
    return this;
  }

  async stop(): Promise<void> {
    await this.served.stop();
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
