import type { ClientOptions, ExchangeClient } from '../../../src/exchange/client';
import type { Dialect } from '../../../src/exchange/dialect';
import { fixture, LoopbackExchange, loopbackClient, type Asked } from './loopback-exchange';

export { fixture, type Asked };

/** One answer of the exchange. */
export interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/**
 * A signed exchange on loopback, answering as its documentation says: `answer` is the
 * exchange (paths, signature checks, refusals), written in each test from the exchange's docs,
 * never from the dialect under test. Its clock runs `aheadMs` ahead of ours.
 */
export class SignedExchange extends LoopbackExchange {
  constructor(
    private readonly answer: (asked: Asked, now: number) => Answer,
    private readonly aheadMs = 0,
  ) {
    super();
  }

  now(): number {
    return Date.now() + this.aheadMs;
  }

  /** The paths asked, without their queries. */
  paths(): string[] {
    return this.asked.map((a) => a.path.split('?')[0] as string);
  }

  protected respond(asked: Asked): Answer {
    return this.answer(asked, this.now());
  }
}

/** The real client for a dialect, against a loopback exchange; no retries, so each answer counts once. */
export function clientOf(dialect: Dialect, url: string, credentials: unknown, over: Partial<ClientOptions> = {}): ExchangeClient {
  return loopbackClient(dialect, url, { exchange: `${dialect.name}-test`, credentials, ...over });
}

/** An answer's text through a dialect's decode, as the client does it (what it throws, a rejection). */
export async function decodeText(dialect: Dialect, endpoint: 'coins' | 'tickers', text: string): Promise<unknown> {
  return endpoint === 'coins' ? dialect.decode.coins(text) : dialect.decode.tickers(text);
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Answer {
  return { status, body: typeof body === 'string' ? body : JSON.stringify(body), ...(headers !== undefined && { headers }) };
}
