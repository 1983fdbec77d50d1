import type { Clock } from '../lib/clock';
import type { FetchResult } from '../exchange/client';
import type { Change } from '../snapshot/changes';
import { applyCoins, applyTickers } from '../snapshot/merge';
import { emptySnapshot, type CoinRecord, type Snapshot, type TickerRecord } from '../snapshot/model';
import type { Decision, Engine } from './engine';
import type { PollAnswer, PollFailure, PollSink, PollSuccess } from './poller';
import type { StateWriter } from './writer';

/** What the poll path tells the rest of the daemon, one way: metrics, health, logs, the views. */
export interface PollObserver {
  /** The changes of an accepted answer, heard with the snapshot they belong to (before its state is written). */
  changes(exchange: string, changes: readonly Change[]): void;
  /** An answer, as the engine judged it (an empty list is a failure of that poll). */
  answered(poll: PollSuccess, decision: Decision): void;
  /** A failed poll, once the engine has counted it. */
  failed(poll: PollFailure): void;
}

export interface PollPathOptions {
  engine: Engine;
  writer: StateWriter;
  observer: PollObserver;
  clock: Clock;
}

/**
 * The poll path, one way: a poller's answer is merged into the exchange's snapshot, judged by
 * the engine (guard, diff, rules, lifecycle), and its effects follow: the writer writes the
 * state and then hands on the notifications, the observer updates metrics, health and views.
 * Nothing calls back up to the poller. Decisions of one exchange run one at a time, each
 * reading the snapshot as the last one left it.
 */
export class PollPath implements PollSink {
  private readonly snapshots = new Map<string, Snapshot>();
  private readonly deciding = new Map<string, Promise<void>>();
  /** Exchange and endpoint whose last answer was accepted since the exchange was resumed (see answer()). */
  private readonly taken = new Set<string>();

  constructor(private readonly options: PollPathOptions) {}

  /** Where an exchange resumes from (a restored snapshot; empty when there is none). */
  resume(exchange: string, snapshot: Snapshot | undefined): void {
    this.snapshots.set(exchange, snapshot ?? emptySnapshot(exchange));
    this.forgetTaken(exchange);
  }

  /** The exchange's snapshot now, when it is watched. */
  current(exchange: string): Snapshot | undefined {
    return this.snapshots.get(exchange);
  }

  previous(exchange: string): Snapshot {
    return this.snapshots.get(exchange) ?? emptySnapshot(exchange);
  }

  /** An exchange no longer watched (a reload removed it): its alerts resolve and are told, its state goes. */
  drop(exchange: string, at: number): void {
    this.options.writer.drop(exchange, this.options.engine.dropExchange(exchange, at));
    this.snapshots.delete(exchange);
    this.forgetTaken(exchange);
  }

  answer(poll: PollAnswer): Promise<void> {
    return this.oneAtATime(poll.exchange, async () => {
      const { clock } = this.options;
      const { exchange, endpoint } = poll;
      const prev = this.previous(exchange);
      // Merged into the snapshot as it is now: the other endpoint's decision may have replaced it meanwhile.
      const at = clock.now();
      // An answer whose text is the last one's, which was taken: the merge would give the very
      // same part again (merge.ts keeps the maps of what did not change), so it is not run.
      const key = `${exchange}\u0000${endpoint}`;
      const same = poll.answer.unchanged === true && this.taken.has(key);
      const next = same
        ? { ...prev, [endpoint === 'coins' ? 'coinsAt' : 'tickersAt']: at }
        : endpoint === 'coins'
          ? applyCoins(prev, poll.answer as FetchResult<CoinRecord>, at)
          : applyTickers(prev, poll.answer as FetchResult<TickerRecord>, at);
      const decision = await this.judge({ exchange, endpoint, prev, next, issues: poll.answer.issues, at, durationMs: at - poll.startedAt, bytes: poll.answer.bytes });
      if (decision.outcome === 'accepted') this.taken.add(key);
      else this.taken.delete(key);
      if (this.snapshots.has(exchange)) this.snapshots.set(exchange, decision.snapshot);
    });
  }

  /**
   * A merged answer judged, and its effects: the state written and then what must be told
   * handed on (in later turns), the observer told. Returns the decision (the snapshot to keep).
   */
  async judge(success: PollSuccess): Promise<Decision> {
    const { engine, writer, observer } = this.options;
    const { exchange, endpoint, prev, next, at } = success;
    const decision = await engine.decide(success);
    if (decision.outcome === 'accepted') {
      writer.poll({ exchange, endpoint, at, prev, next, changes: decision.changes, history: engine.history(exchange), notify: decision.notify });
      if (decision.changes.length > 0) observer.changes(exchange, decision.changes);
    } else writer.alerts(exchange, at, decision.notify);
    observer.answered(success, decision);
    return decision;
  }

  failure(poll: PollFailure): void {
    const notify = this.options.engine.failure(poll.exchange, poll.endpoint, poll.at, poll.error.message);
    this.options.writer.alerts(poll.exchange, poll.at, notify);
    this.options.observer.failed(poll);
  }

  private forgetTaken(exchange: string): void {
    this.taken.delete(`${exchange}\u0000coins`);
    this.taken.delete(`${exchange}\u0000tickers`);
  }

  /** Runs one exchange's decisions one at a time, in order. */
  private oneAtATime(exchange: string, decide: () => Promise<void>): Promise<void> {
    const run = (this.deciding.get(exchange) ?? Promise.resolve()).then(decide);
    this.deciding.set(exchange, run.catch(() => undefined));
    return run;
  }
}
