/**
 * The health of the polls, pure: which endpoints have answered at least once (readiness),
 * which answered last time (`spotwatch_up`), and each endpoint's last poll (the status page and
 * /api/v1/state). Time comes in with each poll.
 */
import { ENDPOINTS, type Endpoint } from '../snapshot/model';

export interface LastPoll {
  at: string;
  ok: boolean;
  kind?: string;
  error?: string;
}

const key = (exchange: string, endpoint: string): string => `${exchange}\u0000${endpoint}`;

export class PollHealth {
  /** Endpoints polled successfully at least once. */
  private readonly answered = new Set<string>();
  /** Endpoints whose last poll succeeded. */
  private readonly healthy = new Set<string>();
  private readonly last = new Map<string, LastPoll>();

  /** A poll whose answer was taken (`accepted`) or held as suspect (answered, but not taken: not ok). */
  answer(exchange: string, endpoint: Endpoint, at: number, accepted: boolean): void {
    this.last.set(key(exchange, endpoint), { at: new Date(at).toISOString(), ok: accepted });
    if (!accepted) return;
    this.answered.add(key(exchange, endpoint));
    this.healthy.add(key(exchange, endpoint));
  }

  /** A poll that failed (an empty list counts as one, of kind `schema`). */
  failure(exchange: string, endpoint: Endpoint, at: number, kind: string, error: string): void {
    this.healthy.delete(key(exchange, endpoint));
    this.last.set(key(exchange, endpoint), { at: new Date(at).toISOString(), ok: false, kind, error });
  }

  /** Both endpoints answered at their last poll. */
  up(exchange: string): boolean {
    return ENDPOINTS.every((e) => this.healthy.has(key(exchange, e)));
  }

  /** Both endpoints have answered at least once. */
  ready(exchange: string): boolean {
    return ENDPOINTS.every((e) => this.answered.has(key(exchange, e)));
  }

  lastPolls(exchange: string): Record<Endpoint, LastPoll | null> {
    return { coins: this.last.get(key(exchange, 'coins')) ?? null, tickers: this.last.get(key(exchange, 'tickers')) ?? null };
  }

  /** An exchange no longer watched (or restarted by a reload): it must answer again to be ready. */
  forget(exchange: string): void {
    for (const e of ENDPOINTS) {
      this.answered.delete(key(exchange, e));
      this.healthy.delete(key(exchange, e));
    }
  }
}
