import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { ExchangeClient } from '../../../src/exchange/client';
import type { Dialect } from '../../../src/exchange/dialect';
import { closeServer, listenLoopback } from '../../support/loopback';

/** A recorded answer of a dialect's exchange, as its text (`<name>/fixtures/<file>`). */
export function fixture(dialect: string, file: string): string {
  return readFileSync(join(__dirname, dialect, 'fixtures', file), 'utf8');
}

/**
 * A recorded answer with fields of one of its objects (`at`) replaced; a field given as
 * undefined is left out.
 */
export function fixtureWith(dialect: string, file: string, at: (body: never) => Record<string, unknown>, fields: Record<string, unknown>): string {
  const body = JSON.parse(fixture(dialect, file)) as never;
  const o = at(body);
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) delete o[k];
    else o[k] = v;
  }
  return JSON.stringify(body);
}

/** An answer the loopback exchange sends. */
export interface Answer {
  status?: number;
  body: string;
  headers?: Record<string, string>;
}

/**
 * An exchange on loopback (port 0) that answers each path with what `answers` holds for it
 * (recorded answers, or the exchange's documented refusals), and 404 otherwise; it records
 * the paths asked for.
 */
export class RecordedExchange {
  readonly requests: string[] = [];
  url = '';
  private server: Server | undefined;

  constructor(readonly answers: Map<string, Answer>) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      this.requests.push(path);
      const answer = this.answers.get(path) ?? { status: 404, body: '' };
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body);
    });
    this.url = await listenLoopback(this.server);
    return this;
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }
}

/** The real client of `dialect` at `url`: no retries, a budget that never throttles. */
export function clientOf(dialect: Dialect, url: string): ExchangeClient {
  return new ExchangeClient({
    exchange: dialect.name,
    dialect,
    baseUrl: url,
    timeoutMs: 2_000,
    maxBodyBytes: 1 << 20,
    retries: { max: 0, baseDelayMs: 10, maxDelayMs: 50 },
    weightLimit: { max: 100_000, windowMs: 10_000 },
  });
}

/** What the client throws for `fetch`, as `[kind, message, retryAfterMs]`. */
export async function failure(fetch: Promise<unknown>): Promise<[string, string, number | undefined]> {
  const err = (await fetch.then(
    () => undefined,
    (e: unknown) => e,
  )) as { kind: string; message: string; retryAfterMs?: number } | undefined;
  if (err === undefined) throw new Error('expected the request to fail');
  return [err.kind, err.message, err.retryAfterMs];
}
