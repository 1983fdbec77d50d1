import type { ExchangeClient, FetchResult } from '../exchange/client';
import { ExchangeError } from '../exchange/errors';
import type { Endpoint } from '../snapshot/model';
import type { Clock } from '../lib/clock';
import { nextTurn } from '../lib/timer';
import type { CoinRecord, RecordIssue, Snapshot, TickerRecord } from '../snapshot/model';
import { startLoop, type Loop } from './loop';

/** A poll whose answer was read: the records, before any judgement. */
export interface PollAnswer {
  exchange: string;
  endpoint: Endpoint;
  answer: FetchResult<CoinRecord> | FetchResult<TickerRecord>;
  /** When the poll started and when its answer was read. */
  startedAt: number;
  at: number;
}

/** A poll that produced a new snapshot (what the path judges). */
export interface PollSuccess {
  exchange: string;
  endpoint: Endpoint;
  prev: Snapshot;
  next: Snapshot;
  /** Records the exchange sent that failed validation (their previous values were kept). */
  issues: RecordIssue[];
  at: number;
  durationMs: number;
  bytes: number;
}

/** A poll that failed: an error of that poll, never an empty exchange. */
export interface PollFailure {
  exchange: string;
  endpoint: Endpoint;
  error: ExchangeError;
  at: number;
  durationMs: number;
}

/** Where a poller hands what it read, one way: the poll path (path.ts). */
export interface PollSink {
  /** The records the exchange is known by now, for the client to keep unchanged records' objects. */
  previous(exchange: string): Snapshot;
  /** An answer; resolves once it has been judged (the next poll of the endpoint waits for it). */
  answer(poll: PollAnswer): Promise<void>;
  failure(poll: PollFailure): Promise<void> | void;
}

export interface PollerOptions {
  exchange: string;
  client: ExchangeClient;
  clock: Clock;
  random: () => number;
  intervals: Record<Endpoint, number>;
  /** Watch list for tickers; empty = every symbol. */
  symbols: readonly string[];
  jitter?: number;
  sink: PollSink;
  /** A fault of spotwatch itself (not of the exchange) during a poll: logged, and the loop goes on. */
  onBug: (err: unknown) => void;
}

/** Polls one exchange: coins and tickers each on their own loop; every answer goes on to the sink. */
export class ExchangePoller {
  private loops: Loop[] = [];

  constructor(private readonly options: PollerOptions) {}

  start(): void {
    const endpoints: Endpoint[] = ['coins', 'tickers'];
    this.loops = endpoints.map((endpoint) =>
      startLoop({
        intervalMs: this.options.intervals[endpoint],
        jitter: this.options.jitter ?? 0.1,
        clock: this.options.clock,
        random: this.options.random,
        run: (signal) => this.poll(endpoint, signal),
        onError: this.options.onBug,
      }),
    );
  }

  /** Stops both loops, abandoning the requests in flight. */
  async stop(): Promise<void> {
    await Promise.all(this.loops.map((l) => l.stop()));
    this.loops = [];
  }

  /** One poll of one endpoint. */
  async poll(endpoint: Endpoint, signal?: AbortSignal): Promise<void> {
    const { clock, client, exchange, sink } = this.options;
    const startedAt = clock.now();
    try {
      const previous = sink.previous(exchange);
      const answer = endpoint === 'coins' ? await client.fetchCoins(signal, previous.coins) : await client.fetchTickers(this.options.symbols, signal, previous.tickers);
      await nextTurn();
      await sink.answer({ exchange, endpoint, answer, startedAt, at: clock.now() });
    } catch (err) {
      if (signal?.aborted) return;
      if (!(err instanceof ExchangeError)) throw err;
      const at = clock.now();
      await sink.failure({ exchange, endpoint, error: err, at, durationMs: at - startedAt });
    }
  }
}
