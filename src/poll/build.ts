import type { Alert } from '../alerts/alert';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import type { Rule } from '../rules/model';
import type { ChainOf } from '../rules/transfer';
import type { GuardOptions } from '../snapshot/guard';
import { Engine } from './engine';
import { PollPath, type PollObserver } from './path';
import type { PollStore } from './store';
import { StateWriter } from './writer';

export interface PollPathOptions {
  rules: Rule[];
  store: PollStore;
  logger: Logger;
  clock: Clock;
  guards: ReadonlyMap<string, GuardOptions>;
  expectedSymbols: ReadonlyMap<string, ReadonlySet<string>>;
  /** The canonical chain of an exchange's network (from the exchange's dialect and the config's chains.aliases). */
  chainOf?: ChainOf;
  /** Receives what must be told, in decision order, once its state is written. */
  notify: (alerts: Alert[]) => void;
  observer: PollObserver;
  onStoreError?: () => void;
  onHistoryDropped?: (rows: number) => void;
  unsavedChangesLimit?: number;
}

export interface PollPathParts {
  engine: Engine;
  writer: StateWriter;
  path: PollPath;
}

/** The poll path's parts, wired: the engine (decisions), the writer (effects on the store), the path (one way from answer to effects). */
export function buildPollPath(o: PollPathOptions): PollPathParts {
  // The engine reads other exchanges' snapshots (transfer rules) from the path, which owns them.
  const late: { path?: PollPath } = {};
  const engine = new Engine({
    rules: o.rules,
    alerts: o.store.loadAlerts().values(),
    logger: o.logger,
    guards: o.guards,
    expectedSymbols: o.expectedSymbols,
    ...(o.chainOf !== undefined && { chainOf: o.chainOf }),
    snapshotOf: (exchange) => late.path?.current(exchange),
  });
  const writer = new StateWriter({
    store: o.store,
    logger: o.logger,
    alertsOf: (exchange) => engine.alertsOf(exchange),
    judgeStore: (exchange, at, error) => engine.judgeStore(exchange, at, error),
    notify: o.notify,
    ...(o.onStoreError !== undefined && { onStoreError: o.onStoreError }),
    ...(o.onHistoryDropped !== undefined && { onHistoryDropped: o.onHistoryDropped }),
    ...(o.unsavedChangesLimit !== undefined && { unsavedChangesLimit: o.unsavedChangesLimit }),
  });
  const path = new PollPath({ engine, writer, clock: o.clock, observer: o.observer });
  late.path = path;
  return { engine, writer, path };
}
