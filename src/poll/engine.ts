import type { Alert } from '../alerts/alert';
import { ActiveAlerts, advance, type FiringCount, type Scope } from '../alerts/lifecycle';
import type { Endpoint } from '../snapshot/model';
import type { Logger } from '../lib/logger';
import { nextTurn } from '../lib/timer';
import { evaluationMemo, readsSnapshotAndActive, readsSnapshotOnly, ruleInDomain, type Evaluation, type Instance } from '../rules/evaluate';
import { evaluateTransfer, transferRoutes } from '../rules/evaluate-transfer';
import { evaluateInTurns, LastEvaluations } from './evaluate-in-turns';
import type { ChainOf, TransferRoute } from '../rules/transfer';
import { SHIPPED_CHAINS } from '../snapshot/chains';
import { historyKeep, SampledTickers, TickerHistory, type SymbolHistory } from '../rules/history';
import type { Rule } from '../rules/model';
import type { Change } from '../snapshot/changes';
import { diffInTurns } from '../snapshot/diff';
import { DEFAULT_GUARD, judge, type GuardOptions, type Suspect } from '../snapshot/guard';
import type { Snapshot } from '../snapshot/model';
import { builtinInstance, builtinRule, STORE_FAILING_RULE, storeFailingInstance, type BuiltinName } from './builtin';

/** Consecutive failed polls of an endpoint before ExchangeDown fires. */
export const DOWN_AFTER_FAILURES = 3;
/** Alerts judged per turn of the event loop (see applyInTurns). */
const ADVANCE_CHUNK = 500;

export interface EngineOptions {
  rules: Rule[];
  /** The alerts active when the daemon stopped (restored from the store). */
  alerts: Iterable<Alert>;
  logger: Logger;
  /** Guard settings by exchange (DEFAULT_GUARD for an exchange not listed). */
  guards: ReadonlyMap<string, GuardOptions>;
  /** Watch lists by exchange, for `missing`. */
  expectedSymbols: ReadonlyMap<string, ReadonlySet<string>>;
  /** The canonical chain of an exchange's network (snapshot/chains.ts); default: the shipped table, read as spot-v3. */
  chainOf?: ChainOf;
  /**
   * Another exchange's current snapshot (the PollPath owns them), for the transfer condition,
   * which reads two exchanges; undefined for an exchange not watched.
   */
  snapshotOf?: (exchange: string) => Snapshot | undefined;
}

const shippedChainOf: ChainOf = (_exchange, network) => SHIPPED_CHAINS.chainOf('spot-v3', network);

/** What the engine made of a successful answer. */
export type Decision =
  /** An empty list, never taken as real: a failure of that poll (the engine has counted it). */
  | { outcome: 'empty'; snapshot: Snapshot; notify: Alert[] }
  /** An answer that shrank suddenly, held as suspect: the previous snapshot stays. */
  | { outcome: 'held'; snapshot: Snapshot; notify: Alert[] }
  /** Taken: the new snapshot, its changes, and what must be told once its state is written. */
  | { outcome: 'accepted'; snapshot: Snapshot; changes: Change[]; notify: Alert[] };

interface ExchangeState {
  suspect: Partial<Record<Endpoint, Suspect>>;
  failures: Record<Endpoint, number>;
  history: TickerHistory;
  /** The tickers some rule needs the samples of. */
  sampled: SampledTickers;
}

/**
 * The decisions of the poll path, poll by poll: guard, diff, rules, alert lifecycle. No I/O:
 * what to write and tell is returned (the writer, writer.ts, does it). Every exchange's alerts
 * live in one map (fingerprints are global), restored from the store at start, so a restart
 * neither forgets what fires nor re-sends it. Long decisions give the event loop turns.
 */
export class Engine {
  private readonly alerts: ActiveAlerts;
  private ruleList: Rule[];
  private readonly exchanges = new Map<string, ExchangeState>();
  /** What evaluation remembers of unchanged records between polls (which states hold per coin object). */
  private readonly memo = evaluationMemo();
  /** Per exchange and rule, the last evaluation of a rule that reads only the snapshot, and the part's map it read. */
  private readonly lastEvaluations = new LastEvaluations();
  private readonly builtins: Rule[] = [...(['UpstreamAnomaly', 'ExchangeDown'] as const).flatMap((n) => [builtinRule(n, 'coins'), builtinRule(n, 'tickers')]), STORE_FAILING_RULE];

  constructor(private options: EngineOptions) {
    this.ruleList = options.rules;
    this.alerts = new ActiveAlerts(options.alerts);
  }

  /** New guard settings and watch lists (a reload). */
  configure(parts: Pick<EngineOptions, 'guards' | 'expectedSymbols'> & Partial<Pick<EngineOptions, 'chainOf'>>): void {
    this.options = { ...this.options, ...parts };
    this.lastEvaluations.clear();
  }

  /** The rules in force, built-in ones included. */
  rules(): readonly Rule[] {
    return [...this.ruleList, ...this.builtins];
  }

  /** Whether an endpoint of the exchange has failed DOWN_AFTER_FAILURES polls in a row. */
  isDown(exchange: string): boolean {
    const f = this.exchanges.get(exchange)?.failures;
    return f !== undefined && (f.coins >= DOWN_AFTER_FAILURES || f.tickers >= DOWN_AFTER_FAILURES);
  }

  /** The active alerts (pending and firing) of every exchange. */
  activeAlerts(): ReadonlyMap<string, Alert> {
    return this.alerts.asMap();
  }

  /** The active alerts of one exchange, by fingerprint. */
  alertsOf(exchange: string): ReadonlyMap<string, Alert> {
    return this.alerts.ofExchange(exchange);
  }

  /** How many alerts fire, by alertname and severity. */
  firingCounts(): Iterable<Readonly<FiringCount>> {
    return this.alerts.firing();
  }

  /** New rules (a reload): alerts of rules that are gone resolve at their exchange's next poll. */
  setRules(rules: Rule[]): void {
    this.ruleList = rules;
    this.lastEvaluations.clear();
    const keep = historyKeep(rules);
    for (const s of this.exchanges.values()) {
      s.history.setKeep(keep);
      s.sampled.clear();
    }
  }

  /** An exchange no longer watched (a reload removed it): its alerts resolve (returned, to be told), its state goes. */
  dropExchange(exchange: string, now: number): Alert[] {
    const notify = this.apply({ active: [], events: [] }, { exchange, rules: new Map(), known: new Set() }, now);
    this.exchanges.delete(exchange);
    this.lastEvaluations.clear(exchange);
    return notify;
  }

  /** The ticker samples kept across a restart (what the store held). */
  restoreHistory(exchange: string, samples: ReadonlyMap<string, SymbolHistory>): void {
    const state = this.state(exchange);
    state.history.symbols = new Map([...state.history.symbols, ...samples]);
  }

  /** The exchange's ticker samples (for the writer). */
  history(exchange: string): ReadonlyMap<string, SymbolHistory> {
    return this.state(exchange).history.symbols;
  }

  /** Judges a successful answer: accepted, held as suspect, or refused as empty (a failure of that poll). */
  async decide(poll: { exchange: string; endpoint: Endpoint; prev: Snapshot; next: Snapshot; at: number }): Promise<Decision> {
    const { exchange, endpoint, prev, next, at } = poll;
    const state = this.state(exchange);
    const verdict = judge(prev, next, endpoint, state.suspect[endpoint], at, this.options.guards.get(exchange) ?? DEFAULT_GUARD);
    if (verdict.verdict === 'empty') return { outcome: 'empty', snapshot: prev, notify: this.failure(exchange, endpoint, at, `${endpoint}: empty list, not taken as real`) };
    state.failures[endpoint] = 0;
    if (verdict.verdict === 'hold') {
      if (state.suspect[endpoint] === undefined) this.options.logger.warn({ exchange, endpoint, ...verdict.suspect }, 'answer shrank suddenly; held as suspect');
      state.suspect[endpoint] = verdict.suspect;
      return { outcome: 'held', snapshot: prev, notify: this.builtinsNow(exchange, endpoint, at) };
    }
    if (verdict.confirmed) this.options.logger.warn({ exchange, endpoint, ...verdict.confirmed }, 'suspect answer persisted; taking it as real');
    delete state.suspect[endpoint];

    const changes = await diffInTurns(prev, next);
    if (endpoint === 'tickers') state.history.record(state.sampled.of(next.tickers, this.ruleList), at);
    const known = this.known();
    const notify: Alert[] = [];
    // One rule at a time, 1,000 alerts per turn of the event loop (applyInTurns): a storm is
    // 8,000 new alerts of one rule, and what arrives meanwhile (health checks, scrapes) is
    // served in between. A rule's alerts resolve only once all its instances were seen.
    const source = endpoint === 'coins' ? next.coins : next.tickers;
    for (const rule of this.ruleList) {
      // A state rule judges coins, a ticker rule tickers; the other part's poll leaves their alerts as they stand.
      const inDomain = ruleInDomain(rule, endpoint);
      if (!inDomain && rule.condition.type !== 'change') continue;
      await nextTurn();
      // A rule that reads only the snapshot gives what it gave last time when the part is the
      // very map it read then (merge keeps it when nothing changed): an unchanged answer costs
      // no evaluation. Time still advances in the lifecycle below (for, repeats, keep_firing_for).
      // A rule with hysteresis also reads which of its alerts are active: reused while that stays as it was.
      const byActive = inDomain && readsSnapshotAndActive(rule);
      const reusable = byActive || (inDomain && readsSnapshotOnly(rule));
      const version = byActive ? this.alerts.activeVersion(rule.id) : undefined;
      const last = reusable ? this.lastEvaluations.get(exchange, rule.id, source, version) : undefined;
      const evaluation = last ?? await evaluateInTurns({
        memo: this.memo,
        rules: [rule],
        domain: endpoint,
        snapshot: next,
        changes,
        samples: state.history.symbols,
        expectedSymbols: this.options.expectedSymbols.get(exchange) ?? new Set(),
        now: at,
        wasActive: (ruleId, entity) => this.alerts.isActive(ruleId, entity),
        chainOf: (network) => this.chainOf(exchange, network),
      });
      if (reusable) this.lastEvaluations.set(exchange, rule.id, source, evaluation, version);
      notify.push(...(await this.applyInTurns(evaluation, { exchange, rules: inDomain ? new Map([[rule.id, rule]]) : new Map<string, Rule>(), known }, at)));
    }
    // A route is re-judged when either end's coins change: the alert belongs to `from`.
    if (endpoint === 'coins') notify.push(...this.judgeTransfers(exchange, next, known, at));
    // Alerts of rules that no longer exist resolve (even with no rule left to evaluate).
    notify.push(...this.apply({ active: [], events: [] }, { exchange, rules: new Map(), known }, at));
    notify.push(...this.builtinsNow(exchange, endpoint, at));

    return { outcome: 'accepted', snapshot: next, changes, notify };
  }

  /** The route of every transfer rule as the exchanges' current snapshots stand (for the views). */
  transferRoutes(): (TransferRoute & { alert: string })[] {
    return transferRoutes(this.ruleList, (ex) => this.options.snapshotOf?.(ex), (ex, n) => this.chainOf(ex, n));
  }

  /** The transfer rules with an end at `exchange`, judged with its new snapshot and the other end's current one. */
  private judgeTransfers(exchange: string, next: Snapshot, known: ReadonlySet<string>, at: number): Alert[] {
    const notify: Alert[] = [];
    for (const rule of this.ruleList) {
      const c = rule.condition;
      if (c.type !== 'transfer' || (c.from !== exchange && c.to !== exchange)) continue;
      const end = (name: string): Snapshot | undefined => (name === exchange ? next : this.options.snapshotOf?.(name));
      const { active } = evaluateTransfer(rule, c, end(c.from), end(c.to), (ex, n) => this.chainOf(ex, n));
      notify.push(...this.apply({ active, events: [] }, { exchange: c.from, rules: new Map([[rule.id, rule]]), known }, at));
    }
    return notify;
  }

  /** The canonical chain of an exchange's network, as the rules see it (null when unknown). */
  chainOf(exchange: string, network: string): string | null {
    return (this.options.chainOf ?? shippedChainOf)(exchange, network);
  }

  /** A failed poll (an empty list counts as one): counted toward ExchangeDown; returns what must be told. */
  failure(exchange: string, endpoint: Endpoint, at: number, error: string): Alert[] {
    this.state(exchange).failures[endpoint] += 1;
    return this.builtinsNow(exchange, endpoint, at, error);
  }

  /** StoreFailing for an exchange: firing while its state cannot be written (`error`); returns what must be told. */
  judgeStore(exchange: string, at: number, error: string | undefined): Alert[] {
    const scope: Scope = { exchange, rules: new Map([[STORE_FAILING_RULE.id, STORE_FAILING_RULE]]), known: this.known() };
    return this.apply({ active: error === undefined ? [] : [storeFailingInstance(exchange, error)], events: [] }, scope, at);
  }

  /** Re-judges UpstreamAnomaly and ExchangeDown for one endpoint. */
  private builtinsNow(exchange: string, endpoint: Endpoint, at: number, error?: string): Alert[] {
    const state = this.state(exchange);
    const active: Instance[] = [];
    const rule = (name: BuiltinName): Rule => this.builtins.find((r) => r.id === `builtin:${name}:${endpoint}`) as Rule;
    const suspect = state.suspect[endpoint];
    if (suspect !== undefined) active.push(builtinInstance(rule('UpstreamAnomaly'), exchange, endpoint, { before: suspect.before, after: suspect.after }));
    if (state.failures[endpoint] >= DOWN_AFTER_FAILURES) {
      active.push(builtinInstance(rule('ExchangeDown'), exchange, endpoint, { error: error ?? 'failing', failures: state.failures[endpoint] }));
    }
    const scope: Scope = { exchange, rules: new Map([rule('UpstreamAnomaly'), rule('ExchangeDown')].map((r) => [r.id, r])), known: this.known() };
    return this.apply({ active, events: [] }, scope, at);
  }

  /**
   * apply(), with a turn of the event loop after every ADVANCE_CHUNK instances or events (a
   * storm is 8,000 of one rule). The alerts of the rule resolve only in the last part, once
   * every instance has been seen.
   */
  private async applyInTurns(evaluation: Evaluation, scope: Scope, at: number): Promise<Alert[]> {
    const parts: Evaluation[] = [];
    for (let i = 0; i < evaluation.active.length; i += ADVANCE_CHUNK) parts.push({ active: evaluation.active.slice(i, i + ADVANCE_CHUNK), events: [] });
    for (let i = 0; i < evaluation.events.length; i += ADVANCE_CHUNK) parts.push({ active: [], events: evaluation.events.slice(i, i + ADVANCE_CHUNK) });
    if (parts.length === 0) parts.push({ active: [], events: [] });
    const notify: Alert[] = [];
    const seen = new Set<string>();
    for (const [k, part] of parts.entries()) {
      if (k > 0) await nextTurn();
      const last = k === parts.length - 1;
      const result = advance(this.alerts, part, scope, at, { alsoSeen: seen, resolve: last });
      this.alerts.apply(result);
      notify.push(...result.notify);
      for (const fp of result.seen) seen.add(fp);
    }
    return notify;
  }

  private apply(evaluation: Evaluation, scope: Scope, at: number): Alert[] {
    const result = advance(this.alerts, evaluation, scope, at);
    this.alerts.apply(result);
    return result.notify;
  }

  private known(): Set<string> {
    return new Set([...this.ruleList.map((r) => r.id), ...this.builtins.map((r) => r.id)]);
  }

  private state(exchange: string): ExchangeState {
    let s = this.exchanges.get(exchange);
    if (s === undefined) {
      s = { suspect: {}, failures: { coins: 0, tickers: 0 }, history: new TickerHistory(historyKeep(this.ruleList)), sampled: new SampledTickers(exchange) };
      this.exchanges.set(exchange, s);
    }
    return s;
  }
}
