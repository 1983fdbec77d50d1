/** The types of an evaluation of rules (evaluate.ts), and what evaluations remember between polls. */
import type { Change } from '../snapshot/changes';
import type { CoinRecord, Snapshot, TickerRecord } from '../snapshot/model';
import type { Samples } from './history';
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
  /** Kept by the caller from poll to poll; without one, the evaluation works everything out afresh. */
  memo?: EvaluationMemo;
  /** The canonical chain of one of this exchange's networks (snapshot/chains.ts); null when unknown (no `chain` label). */
  chainOf?: (network: string) => string | null;
}

/**
 * What evaluations remember of records, owned by their caller (one for the life of an engine):
 * which network states hold on some network of a coin, one bit per NETWORK_STATES entry. An
 * unchanged coin keeps its record object from poll to poll, so most polls look at no network
 * of a coin where no state rule can hold.
 */
export interface EvaluationMemo {
  readonly states: WeakMap<CoinRecord, number>;
  /** Per rule (a reload makes new rule objects) and exchange, whether its match takes a symbol. */
  readonly symbols: WeakMap<Rule, Map<string, Map<string, boolean>>>;
  /**
   * The measures of a ticker that read the ticker alone (see measuresTickerOnly), per ticker
   * object: an unchanged ticker keeps its object, so a rule with hysteresis over every USDT pair
   * (evaluated every poll: it reads whether its alert is active) parses no price again.
   */
  readonly measures: WeakMap<TickerRecord, Map<string, number | undefined>>;
  /** Per rule with a match, the tickers of a tickers map its match takes (a rule named for a few symbols looks at those only while the map stays). */
  readonly taken: WeakMap<Rule, WeakMap<ReadonlyMap<string, TickerRecord>, TickerRecord[]>>;
}

export function evaluationMemo(): EvaluationMemo {
  return { states: new WeakMap(), symbols: new WeakMap(), measures: new WeakMap(), taken: new WeakMap() };
}

export interface Evaluation {
  /** Conditions that hold now, for the rules of this domain. */
  active: Instance[];
  /** Change events, one per matching change. */
  events: Instance[];
}
