/**
 * What the poll path knows between two answers, as one value: the settings it decides by, each
 * exchange's snapshot and what the guard and the failures count hold, the ticker samples, and
 * the active alerts. `step` (step.ts) takes one and returns the next; nothing here changes.
 */
import { activeAlerts, type ActiveAlerts } from '../alerts/lifecycle';
import type { Alert } from '../alerts/alert';
import type { Samples } from '../rules/ticker-samples';
import type { Rule } from '../rules/model';
import type { ChainOf } from '../rules/transfer';
import { EMPTY_NOTICES, type NoticeBook } from '../notices/book';
import { DEFAULT_FLAPPING, EMPTY_BOOK, type FlapBook, type FlapOptions } from '../rules/flapping';
import { DEFAULT_GUARD, type GuardOptions, type Suspect } from '../snapshot/guard';
import { emptySnapshot, type Endpoint, type Snapshot } from '../snapshot/model';

/** What the decisions follow from the configuration (a reload gives new settings: configure). */
export interface StepSettings {
  /** The rules file's rules (the built-in ones are step's own). */
  readonly rules: readonly Rule[];
  /** Guard settings by exchange (DEFAULT_GUARD for one not listed). */
  readonly guards: ReadonlyMap<string, GuardOptions>;
  /** Watch lists by exchange, for `missing`. */
  readonly expectedSymbols: ReadonlyMap<string, ReadonlySet<string>>;
  /** The canonical chain of an exchange's network. */
  readonly chainOf: ChainOf;
  /** Flap detection by exchange (DEFAULT_FLAPPING for one not listed, or when absent). */
  readonly flapping?: ReadonlyMap<string, FlapOptions>;
  /** How long an announcement explains a closure (notices.explains_for), by exchange; DEFAULT_EXPLAINS_FOR_MS when absent. */
  readonly explainsFor?: ReadonlyMap<string, number>;
}

/** notices.explains_for's default: 14 days. */
export const DEFAULT_EXPLAINS_FOR_MS = 14 * 24 * 3_600_000;

/** One exchange, between two answers. */
export interface ExchangeState {
  readonly snapshot: Snapshot;
  /** An answer that shrank suddenly, held until it persists (the guard), per endpoint. */
  readonly suspect: Readonly<Partial<Record<Endpoint, Suspect>>>;
  /** Failed polls in a row, per endpoint (ExchangeDown after DOWN_AFTER_FAILURES). */
  readonly failures: Readonly<Record<Endpoint, number>>;
  readonly samples: Samples;
  /** Why the last write of this exchange's state failed; undefined when it succeeded (StoreFailing). */
  readonly storeError: string | undefined;
  /** When the tickers part and the samples were last handed to the store (null: not yet); they are written once a minute. */
  readonly savedAt: Readonly<{ tickers: number | null; samples: number | null }>;
  /**
   * Whether the rules that read a part alone have been judged against the part as it stands,
   * under these settings: then an answer that leaves the part as it was (the same map) only
   * moves their alerts in time. False after a start and after a reload.
   */
  readonly judged: Readonly<Record<Endpoint, boolean>>;
  /** The networks (coins) and symbols (tickers) that changed within the flap window. */
  readonly flaps: Readonly<Record<Endpoint, FlapBook>>;
  /** What the exchange's notice sources have said (notices.md). */
  readonly notices: NoticeBook;
}

export interface PollState {
  readonly settings: StepSettings;
  readonly exchanges: ReadonlyMap<string, ExchangeState>;
  readonly alerts: ActiveAlerts;
}

/** What the store gave back at a start, per exchange. */
export interface Restored {
  readonly snapshot?: Snapshot | undefined;
  readonly samples?: Samples | undefined;
  readonly notices?: NoticeBook | undefined;
}

function exchangeState(restored: Restored, name: string): ExchangeState {
  return {
    snapshot: restored.snapshot ?? emptySnapshot(name),
    suspect: {},
    failures: { coins: 0, tickers: 0 },
    samples: restored.samples ?? new Map(),
    storeError: undefined,
    savedAt: { tickers: null, samples: null },
    judged: { coins: false, tickers: false },
    flaps: { coins: EMPTY_BOOK, tickers: EMPTY_BOOK },
    notices: restored.notices ?? EMPTY_NOTICES,
  };
}

/** The state at a start: what the store had of each exchange, and the alerts active when the daemon stopped. */
export function initialState(settings: StepSettings, restored: ReadonlyMap<string, Restored> = new Map(), alerts: Iterable<Alert> = []): PollState {
  return {
    settings,
    exchanges: new Map([...restored].map(([name, r]) => [name, exchangeState(r, name)])),
    alerts: activeAlerts(alerts),
  };
}

/**
 * New settings (a reload): every rule is judged again at each exchange's next answers, and the
 * alerts of rules that are gone resolve then. An exchange no longer watched is dropped by a
 * step of its own (`drop`), which tells what resolves.
 */
export function configure(state: PollState, settings: StepSettings): PollState {
  const exchanges = new Map([...state.exchanges].map(([name, ex]) => [name, { ...ex, judged: { coins: false, tickers: false } }]));
  return { ...state, settings, exchanges };
}

/** An exchange's state (a fresh one for an exchange not seen yet). */
export function exchangeOf(state: PollState, exchange: string): ExchangeState {
  return state.exchanges.get(exchange) ?? exchangeState({}, exchange);
}

export function guardOf(state: PollState, exchange: string): GuardOptions {
  return state.settings.guards.get(exchange) ?? DEFAULT_GUARD;
}

export function flappingOf(state: PollState, exchange: string): FlapOptions {
  return state.settings.flapping?.get(exchange) ?? DEFAULT_FLAPPING;
}
