import { systemClock, type Clock } from '../lib/clock';
import { silentLogger, type Logger } from '../lib/logger';
import { MAX_SIMULATED_COINS } from '../lib/simulated-market';
import type { SimulatorDialect } from './dialects/names';
import type { SimCredentials } from './dialects/types';
import type { Scenario } from './scenario/types';
import { systemScheduler, type Scheduler } from '../lib/scheduler';

export interface SimulatorOptions {
  /** What runs the scenario's ticks (default: the system's timers). */
  scheduler?: Scheduler;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** Default 1: a seed names one exact market. */
  seed?: number;
  /** Default 4000 coins (about 8,000 networks and 3,500 symbols). */
  coins?: number;
  /** Timeline started when the simulator is created. */
  scenario?: Scenario;
  /** Default the system clock; a manual clock makes every answer reproducible. */
  clock?: Clock;
  /** Request weight per IP; default 500 per 10,000 ms. */
  weightLimit?: { max: number; windowMs: number };
  /** Requests refused in a row (429) before a ban (418); default 5. */
  banAfter?: number;
  /** Length of a ban; default 60,000 ms. */
  banMs?: number;
  /** Most entries accepted in `symbols`; default 100. */
  symbolsCap?: number;
  /** Default silent. */
  logger?: Logger;
  /** The API served; default `spot-v3`, the spec's own. */
  dialect?: SimulatorDialect;
  /** The key signed endpoints accept (binance, mexc, okx, bybit); without it they refuse every key. */
  credentials?: SimCredentials;
}

export const SIMULATOR_DEFAULTS = {
  host: '127.0.0.1',
  port: 8080,
  seed: 1,
  coins: 4000,
  weightLimit: { max: 500, windowMs: 10_000 },
  banAfter: 5,
  banMs: 60_000,
  symbolsCap: 100,
  dialect: 'spot-v3',
} as const;

export type ResolvedOptions = Required<Omit<SimulatorOptions, 'scenario' | 'credentials'>> & {
  scenario: Scenario | undefined;
  credentials: SimCredentials | undefined;
};

export function resolveOptions(options: SimulatorOptions): ResolvedOptions {
  const coins = options.coins ?? SIMULATOR_DEFAULTS.coins;
  if (!Number.isInteger(coins) || coins < 1) throw new RangeError(`coins must be a positive integer (got ${coins})`);
  if (coins > MAX_SIMULATED_COINS) throw new RangeError(`coins must be at most ${MAX_SIMULATED_COINS} (got ${coins})`);
  return {
    host: options.host ?? SIMULATOR_DEFAULTS.host,
    port: options.port ?? SIMULATOR_DEFAULTS.port,
    seed: options.seed ?? SIMULATOR_DEFAULTS.seed,
    coins,
    scenario: options.scenario,
    clock: options.clock ?? systemClock,
    scheduler: options.scheduler ?? systemScheduler,
    weightLimit: options.weightLimit ?? SIMULATOR_DEFAULTS.weightLimit,
    banAfter: options.banAfter ?? SIMULATOR_DEFAULTS.banAfter,
    banMs: options.banMs ?? SIMULATOR_DEFAULTS.banMs,
    symbolsCap: options.symbolsCap ?? SIMULATOR_DEFAULTS.symbolsCap,
    logger: options.logger ?? silentLogger(),
    dialect: options.dialect ?? SIMULATOR_DEFAULTS.dialect,
    credentials: options.credentials,
  };
}
