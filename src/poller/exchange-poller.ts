import type { ExchangeClient } from '../exchange/client';
import { ExchangeError } from '../exchange/errors';
import type { Endpoint } from '../snapshot/model';
import type { Clock } from '../lib/clock';
import { nextTurn } from '../lib/timer';
import { applyCoins, applyTickers } from '../snapshot/merge';
import { emptySnapshot, type RecordIssue, type Snapshot } from '../snapshot/model';
import { startLoop, type Loop } from './loop';

/** A poll that produced a new snapshot. */
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

export interface PollerOptions {
  exchange: string;
  client: ExchangeClient;
  clock: Clock;
  random: () => number;
  intervals: Record<Endpoint, number>;
  /** Watch list for tickers; empty = every symbol. */
  symbols: readonly string[];
  jitter?: number;
  /** Where the watcher resumes from (a restored snapshot); empty by default. */
  initial?: Snapshot;
  /**
   * Decides what a successful answer means and returns the snapshot to keep (the same
   * `next`, or the previous one while an answer is held as suspect). It may take several
   * turns of the event loop: the poller runs one decision at a time, reading the snapshot
   * inside it, so the other endpoint's loop cannot slip in between reading and replacing it.
   */
  onSuccess: (poll: PollSuccess) => Snapshot | Promise<Snapshot>;
  onFailure: (poll: PollFailure) => void | Promise<void>;
  /** A fault of spotwatch itself (not of the exchange) during a poll: logged, and the loop goes on. */
  onBug: (err: unknown) => void;
}

/** Polls one exchange: coins and tickers each on their own loop, sharing one snapshot. */
export class ExchangePoller {
  private current: Snapshot;
  private loops: Loop[] = [];
  private deciding: Promise<void> = Promise.resolve();

  constructor(private readonly options: PollerOptions) {
    this.current = options.initial ?? emptySnapshot(options.exchange);
  }

  snapshot(): Snapshot {
    return this.current;
  }

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

  /** Runs decisions one at a time, in order (see PollerOptions.onSuccess). */
  private oneAtATime(decide: () => Promise<void>): Promise<void> {
    const run = this.deciding.then(decide);
    this.deciding = run.catch(() => undefined);
    return run;
  }

  /** One poll of one endpoint; exported for `once` and for tests. */
  async poll(endpoint: Endpoint, signal?: AbortSignal): Promise<void> {
    const { clock, client, exchange } = this.options;
    const started = clock.now();
    try {
      // Fetch first, then merge into the snapshot as it is now: the other endpoint's loop may
      // have replaced it while this request was in flight.
      const fetched = endpoint === 'coins'
        ? { endpoint: 'coins' as const, answer: await client.fetchCoins(signal, this.current.coins) }
        : { endpoint: 'tickers' as const, answer: await client.fetchTickers(this.options.symbols, signal, this.current.tickers) };
      await nextTurn();
      await this.oneAtATime(async () => {
        const prev = this.current;
        const next = fetched.endpoint === 'coins' ? applyCoins(prev, fetched.answer, clock.now()) : applyTickers(prev, fetched.answer, clock.now());
        const at = clock.now();
        const { issues, bytes } = fetched.answer;
        this.current = await this.options.onSuccess({ exchange, endpoint, prev, next, issues, at, durationMs: at - started, bytes });
      });
    } catch (err) {
      if (signal?.aborted) return;
      if (!(err instanceof ExchangeError)) throw err;
      const at = clock.now();
      await this.options.onFailure({ exchange, endpoint, error: err, at, durationMs: at - started });
    }
  }
}

