import type { ExchangeClient } from '../../../src/exchange/client';
import type { Dialect } from '../../../src/exchange/dialect';
import { fixture, LoopbackExchange, loopbackClient, type Answer, type Asked } from './loopback-exchange';

export { fixture, type Answer };

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

/**
 * An exchange on loopback that answers each path with what `answers` holds for it (recorded
 * answers, or the exchange's documented refusals), and 404 otherwise; it records the paths
 * asked for.
 */
export class RecordedExchange extends LoopbackExchange {
  readonly requests: string[] = [];

  constructor(readonly answers: Map<string, Answer>) {
    super();
  }

  protected respond({ path }: Asked): Answer {
    this.requests.push(path);
    return this.answers.get(path) ?? { status: 404, body: '' };
  }
}

/** The real client of `dialect` at `url`: no retries, a budget that never throttles. */
export function clientOf(dialect: Dialect, url: string): ExchangeClient {
  return loopbackClient(dialect, url, { weightLimit: { max: 100_000, windowMs: 10_000 } });
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
