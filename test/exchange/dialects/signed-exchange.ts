import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { ExchangeClient, type ClientOptions } from '../../../src/exchange/client';
import type { Dialect } from '../../../src/exchange/dialect';
import { closeServer, listenLoopback } from '../../support/loopback';

/** One answer of the exchange. */
export interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** What the exchange is asked: the path with its query, and the headers. */
export interface Asked {
  path: string;
  headers: IncomingHttpHeaders;
}

/**
 * A signed exchange on loopback, answering as its documentation says: `answer` is the
 * exchange (paths, signature checks, refusals), written in each test from the exchange's docs,
 * never from the dialect under test. Its clock runs `aheadMs` ahead of ours.
 */
export class SignedExchange {
  readonly asked: Asked[] = [];
  url = '';
  private server: Server | undefined;

  constructor(
    private readonly answer: (asked: Asked, now: number) => Answer,
    private readonly aheadMs = 0,
  ) {}

  now(): number {
    return Date.now() + this.aheadMs;
  }

  /** The paths asked, without their queries. */
  paths(): string[] {
    return this.asked.map((a) => a.path.split('?')[0] as string);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const asked = { path: req.url ?? '/', headers: req.headers };
      this.asked.push(asked);
      const { status, body, headers } = this.answer(asked, this.now());
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    });
    this.url = await listenLoopback(this.server);
    return this;
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }
}

/** The real client for a dialect, against a loopback exchange; no retries, so each answer counts once. */
export function clientOf(dialect: Dialect, url: string, credentials: unknown, over: Partial<ClientOptions> = {}): ExchangeClient {
  return new ExchangeClient({
    exchange: `${dialect.name}-test`,
    dialect,
    credentials,
    baseUrl: url,
    timeoutMs: 2_000,
    maxBodyBytes: 1 << 20,
    retries: { max: 0, baseDelayMs: 10, maxDelayMs: 50 },
    weightLimit: { max: 1_000, windowMs: 10_000 },
    ...over,
  });
}

/** A recorded answer, as text (test/exchange/dialects/<name>/fixtures/, sources in SOURCES.md there). */
export function fixture(dialect: string, file: string): string {
  return readFileSync(join(__dirname, dialect, 'fixtures', file), 'utf8');
}

/** An answer's text through a dialect's parse and decode, as the client does it. */
export async function decodeText(dialect: Dialect, endpoint: 'coins' | 'tickers', text: string): Promise<unknown> {
  const body = await dialect.decode.parse(text, endpoint);
  return endpoint === 'coins' ? dialect.decode.coins(body) : dialect.decode.tickers(body);
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Answer {
  return { status, body: typeof body === 'string' ? body : JSON.stringify(body), ...(headers !== undefined && { headers }) };
}
