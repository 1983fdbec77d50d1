/** The types of an evaluation of rules (evaluate.ts). */
import type { Change } from '../snapshot/changes';
import type { Snapshot } from '../snapshot/model';
import type { Samples } from './ticker-samples';
import type { Instance } from './instance';
import type { Rule } from './model';

/** Which part of a snapshot was just polled: state rules follow coins, ticker rules tickers. */
export type Domain = 'coins' | 'tickers';

export interface EvaluationInput {
  rules: readonly Rule[];
  domain: Domain;
  snapshot: Snapshot;
  changes: readonly Change[];
  /** The watcher's ticker samples (move_percent, stale_for). */
  samples: Samples;
  /** Symbols that should be in every ticker answer (watch list and literal `match.symbol`s). */
  expectedSymbols: ReadonlySet<string>;
  now: number;
  /** Whether an alert of this rule and entity is active (pending or firing): hysteresis needs it. */
  wasActive(ruleId: string, entity: string): boolean;
  /** The canonical chain of one of this exchange's networks (snapshot/chains.ts); null when unknown (no `chain` label). */
  chainOf?: (network: string) => string | null;
}

export interface Evaluation {
  /** Conditions that hold now, for the rules of this domain. */
  active: Instance[];
  /** Change events, one per matching change. */
  events: Instance[];
}
