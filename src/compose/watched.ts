import type { Agent } from 'undici';
import type { ExchangeConfig } from '../config';
import type { ExchangeClient } from '../exchange/client';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import type { Exposition } from '../metrics/exposition';
import type { Engine } from '../poll/engine';
import type { PollHealth } from '../poll/health';
import type { PollPath } from '../poll/path';
import { ExchangePoller } from '../poll/poller';
import type { StateStore } from '../store/store';
import { clientFor, reach, type Target } from './targets';

interface Watched {
  config: ExchangeConfig;
  target: Target;
  client: ExchangeClient;
  poller: ExchangePoller;
}

export interface WatchedDeps {
  clock: Clock;
  logger: Logger;
  random: () => number;
  pool: Agent;
  engine: Engine;
  store: StateStore;
  path: PollPath;
  exposition: Exposition;
  health: PollHealth;
}

/**
 * The exchanges being polled: each one's target (an embedded reference exchange started when
 * configured), client and poller, resumed from what the store holds. Started and stopped one by
 * one (a reload stops those whose configuration changed and starts them again).
 */
export class WatchedExchanges {
  private readonly watched = new Map<string, Watched>();

  constructor(private readonly deps: WatchedDeps) {}

  names(): string[] {
    return [...this.watched.keys()];
  }

  has(name: string): boolean {
    return this.watched.has(name);
  }

  /** The configuration an exchange runs with (undefined when not watched). */
  config(name: string): ExchangeConfig | undefined {
    return this.watched.get(name)?.config;
  }

  /** The request weight an exchange's client has used in its window. */
  usedWeight(name: string): number {
    return this.watched.get(name)?.client.usedWeight() ?? 0;
  }

  async start(ex: ExchangeConfig): Promise<void> {
    const { clock, logger, random, engine, store, path, exposition } = this.deps;
    const target = await reach(ex, clock, logger, true);
    const client = clientFor(target, clock, this.deps.pool, logger);
    // Resumed from what the store holds: what changed meanwhile shows at the first poll.
    const initial = store.loadSnapshot(ex.name);
    const samples = store.loadHistory(ex.name);
    if (samples !== undefined) engine.restoreHistory(ex.name, samples);
    path.resume(ex.name, initial);
    if (initial !== undefined) {
      if (initial.coinsAt !== null) exposition.update(initial, 'coins');
      if (initial.tickersAt !== null) exposition.update(initial, 'tickers');
    }
    const poller = new ExchangePoller({
      exchange: ex.name,
      client,
      clock,
      random,
      intervals: { coins: ex.poll.coins, tickers: ex.poll.tickers },
      symbols: ex.symbols,
      sink: path,
      onBug: (err) => logger.error({ err, exchange: ex.name }, 'internal error during a poll'),
    });
    this.watched.set(ex.name, { config: ex, target, client, poller });
    poller.start();
  }

  /** Stops polling an exchange (abandoning its requests in flight) and its embedded reference exchange. */
  async stop(name: string): Promise<void> {
    const w = this.watched.get(name);
    if (w === undefined) return;
    this.watched.delete(name);
    await w.poller.stop();
    await w.target.embedded?.close();
    this.deps.health.forget(name);
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.names().map((name) => this.stop(name)));
  }
}
