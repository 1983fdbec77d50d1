import type { Alert } from '../alerts/alert';
import { ActiveAlerts, advance, type Scope } from '../alerts/lifecycle';
import type { Endpoint } from '../snapshot/model';
import type { Logger } from '../lib/logger';
import { nextTurn } from '../lib/timer';
import type { PollFailure, PollSuccess } from '../poller/exchange-poller';
import { evaluateRules, ruleInDomain, type Evaluation, type EvaluationInput, type Instance } from '../rules/evaluate';
import { TickerHistory } from '../rules/history';
import { matchesAll } from '../rules/match';
import type { Rule } from '../rules/model';
import type { Change } from '../snapshot/changes';
import { diffInTurns } from '../snapshot/diff';
import { DEFAULT_GUARD, judge, type GuardOptions, type Suspect } from '../snapshot/guard';
import type { Snapshot } from '../snapshot/model';
import { snapshotRecords, type StateStore } from '../store/store';
import { builtinInstance, builtinRule, STORE_FAILING_RULE, storeFailingInstance, type BuiltinName } from './builtin';
import { errorMessage } from '../lib/error-message';

/** Consecutive failed polls of an endpoint before ExchangeDown fires. */
export const DOWN_AFTER_FAILURES = 3;
/** How often the ticker samples are written to the store. */
const HISTORY_SAVE_MS = 60_000;
/** Coins (of a state rule) or changes (of a change rule) evaluated per turn of the event loop (see evaluateInTurns). */
const EVALUATE_CHUNK = 1_000;
/** Alerts judged per turn of the event loop (see applyInTurns). */
const ADVANCE_CHUNK = 1_000;
/** Change rows written per transaction (one turn of the event loop each). */
const WRITE_CHUNK = 1_000;
/**
 * Alert rows, and snapshot records serialized, per turn of the event loop ahead of a state
 * write (see onSuccess): a storm's 8,378 new alerts and 4 MB snapshot written in one step held
 * the loop 150-270 ms.
 */
const STATE_CHUNK = 500;
/** How often an unchanged ticker list is written to the store. */
const TICKERS_SAVE_MS = 60_000;
/**
 * Change rows kept in memory at most while the store cannot be written (about 20 MB); they
 * are written with the next write that succeeds. Past it the oldest are dropped and counted.
 */
export const UNSAVED_CHANGES_LIMIT = 100_000;

export interface EngineOptions {
  rules: Rule[];
  store: StateStore;
  logger: Logger;
  /** Guard settings by exchange (DEFAULT_GUARD for an exchange not listed). */
  guards: ReadonlyMap<string, GuardOptions>;
  /** Watch lists by exchange, for `missing`. */
  expectedSymbols: ReadonlyMap<string, ReadonlySet<string>>;
  /** Receives what must be told (firing, repeats, resolutions, events), in order. */
  notify: (alerts: Alert[]) => void;
  /** Told of every accepted change (metrics, logs). */
  onChanges?: (exchange: string, changes: readonly Change[]) => void;
  /** Told of every failed write to the store (metrics). */
  onStoreError?: () => void;
  /** Told of change rows dropped from the history: the store failed past UNSAVED_CHANGES_LIMIT. */
  onHistoryDropped?: (rows: number) => void;
  /** UNSAVED_CHANGES_LIMIT unless given (tests). */
  unsavedChangesLimit?: number;
}

interface ExchangeState {
  suspect: Partial<Record<Endpoint, Suspect>>;
  failures: Record<Endpoint, number>;
  history: TickerHistory;
  historySavedAt: number;
  tickersSavedAt: number;
  /** Per symbol: does any rule need its samples? (Cleared when the rules change.) */
  sampled: Map<string, boolean>;
}

/**
 * The decisions of the watcher, poll by poll: guard, diff, rules, alert lifecycle, then
 * state written in one transaction and notifications handed on. Every exchange's alerts
 * live in one map (fingerprints are global), restored from the store at start, so a
 * restart neither forgets what fires nor re-sends it.
 */
export class Engine {
  private readonly alerts: ActiveAlerts;
  private ruleList: Rule[];
  private readonly exchanges = new Map<string, ExchangeState>();
  private storeFailing = false;
  /** Changes of polls whose write failed, oldest first: written with the next write that succeeds. */
  private unsavedChanges: Change[] = [];
  /**
   * Snapshot parts whose write failed, by exchange and part (the latest): written with those
   * changes, whatever poll's write succeeds first, so a restart does not report them again.
   */
  private readonly unsavedSnapshots = new Map<string, { snapshot: Snapshot; part: Endpoint }>();
  /** Writes and notifications decided but not yet done, in order (see later()). */
  private readonly backlog: Step[] = [];
  private draining: Promise<void> | undefined;
  /** Per exchange, the alerts as the store holds them, by fingerprint (see writeAlerts); none known before the first write. */
  private readonly savedAlerts = new Map<string, Map<string, Alert>>();
  private readonly builtins: Rule[] = [...(['UpstreamAnomaly', 'ExchangeDown'] as const).flatMap((n) => [builtinRule(n, 'coins'), builtinRule(n, 'tickers')]), STORE_FAILING_RULE];

  constructor(private options: EngineOptions) {
    this.ruleList = options.rules;
    this.alerts = new ActiveAlerts(options.store.loadAlerts().values());
  }

  /** New guard settings and watch lists (a reload). */
  configure(parts: Pick<EngineOptions, 'guards' | 'expectedSymbols'>): void {
    this.options = { ...this.options, ...parts };
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

  /** New rules (a reload): alerts of rules that are gone resolve at their exchange's next poll. */
  setRules(rules: Rule[]): void {
    this.ruleList = rules;
    const keep = historyKeep(rules);
    for (const s of this.exchanges.values()) {
      s.history.setKeep(keep);
      s.sampled.clear();
    }
  }

  /** An exchange no longer watched (a reload removed it): its alerts resolve, its state goes. */
  dropExchange(exchange: string, now: number): void {
    const notify = this.apply({ active: [], events: [] }, { exchange, rules: new Map(), known: new Set() }, now);
    this.exchanges.delete(exchange);
    this.later([
      () => this.writeAlerts(exchange),
      () => {
        if (notify.length > 0) this.options.notify(notify);
      },
    ]);
  }

  /** The snapshot to resume from after a restart (what changed meanwhile shows at the first poll). */
  restore(exchange: string): Snapshot | undefined {
    const state = this.state(exchange);
    const samples = this.options.store.loadHistory(exchange);
    if (samples !== undefined) for (const [k, v] of samples) state.history.symbols.set(k, v);
    return this.options.store.loadSnapshot(exchange);
  }

  /**
   * Judges an answer and returns the snapshot to keep, and what became of the answer:
   * accepted, held as suspect, or refused as empty (a failure of that poll).
   */
  async onSuccess(poll: PollSuccess): Promise<{ snapshot: Snapshot; outcome: 'accepted' | 'held' | 'empty' }> {
    const { exchange, endpoint, prev, next, at } = poll;
    const state = this.state(exchange);
    const verdict = judge(prev, next, endpoint, state.suspect[endpoint], at, this.options.guards.get(exchange) ?? DEFAULT_GUARD);
    if (verdict.verdict === 'empty') {
      this.onFailure({ exchange, endpoint, at, durationMs: poll.durationMs, error: { kind: 'schema', message: `${endpoint}: empty list, not taken as real` } });
      return { snapshot: prev, outcome: 'empty' };
    }
    state.failures[endpoint] = 0;
    if (verdict.verdict === 'hold') {
      if (state.suspect[endpoint] === undefined) this.options.logger.warn({ exchange, endpoint, ...verdict.suspect }, 'answer shrank suddenly; held as suspect');
      state.suspect[endpoint] = verdict.suspect;
      this.judgeBuiltins(exchange, endpoint, at);
      return { snapshot: prev, outcome: 'held' };
    }
    if (verdict.confirmed) this.options.logger.warn({ exchange, endpoint, ...verdict.confirmed }, 'suspect answer persisted; taking it as real');
    delete state.suspect[endpoint];

    const changes = await diffInTurns(prev, next);
    if (endpoint === 'tickers') state.history.record(next.tickers.values(), at, (symbol) => this.sampled(exchange, symbol, state));
    const known = this.known();
    const notify: Alert[] = [];
    // One rule at a time, 1,000 alerts per turn of the event loop (applyInTurns): a storm is
    // 8,000 new alerts of one rule, and what arrives meanwhile (health checks, scrapes) is
    // served in between. A rule's alerts resolve only once all its instances were seen.
    for (const rule of this.ruleList) {
      await nextTurn();
      const evaluation = await evaluateInTurns({
        rules: [rule],
        domain: endpoint,
        snapshot: next,
        changes,
        history: state.history,
        expectedSymbols: this.options.expectedSymbols.get(exchange) ?? new Set(),
        now: at,
        wasActive: (ruleId, entity) => this.alerts.isActive(ruleId, entity),
      });
      const inDomain = ruleInDomain(rule, endpoint) ? new Map([[rule.id, rule]]) : new Map<string, Rule>();
      notify.push(...(await this.applyInTurns(evaluation, { exchange, rules: inDomain, known }, at)));
    }
    // Alerts of rules that no longer exist resolve (even with no rule left to evaluate).
    notify.push(...this.apply({ active: [], events: [] }, { exchange, rules: new Map(), known }, at));
    notify.push(...this.builtinsNow(exchange, endpoint, at));

    const store = this.options.store;
    // Coins are written when they changed; tickers when a symbol came or went (so a restart
    // does not report it again) and otherwise once a minute (their prices are not state).
    const key = `${exchange}\u0000${endpoint}`;
    const saveSnapshot =
      this.unsavedSnapshots.has(key) ||
      (endpoint === 'coins' ? next.coins !== prev.coins || prev.coinsAt === null : changes.length > 0 || at - state.tickersSavedAt >= TICKERS_SAVE_MS);
    if (endpoint === 'tickers' && saveSnapshot) state.tickersSavedAt = at;
    // Written and handed on in later turns (see later()), a storm's history in chunks before the
    // state that follows it. The alerts written are the engine's as they are when the write
    // runs, never a decision's older copy: a later decision (the other endpoint, StoreFailing
    // resolving) may already have changed them, and writing the older copy would store an
    // alert that already resolved. A write the store refuses keeps its rows and snapshot in
    // memory for the next write (see write()), and StoreFailing is judged from the state write.
    const steps: Step[] = [];
    // While the store refuses writes, the rows go with the state write instead (one attempt).
    const deferred: Change[] = [];
    for (let i = 0; i < changes.length; i += WRITE_CHUNK) {
      const part = changes.slice(i, i + WRITE_CHUNK);
      steps.push(() => {
        if (this.storeFailing) deferred.push(...part);
        else if (this.write(() => store.appendChanges(part)) !== undefined) this.keepUnsaved(part);
      });
    }
    // The snapshot serialized and the alerts that changed written ahead, STATE_CHUNK per turn,
    // so the state write itself stays short. A crash before the state write leaves some of the
    // new alerts stored beside the previous snapshot: at restart the firing ones are told (they
    // had not been: notification follows the state write), and the first poll sees the same
    // changes again against that snapshot and decides the rest. Deletions (resolved alerts) only
    // ever land with the snapshot, so no resolution is lost.
    const body: string[] = [];
    if (saveSnapshot) {
      const records = snapshotRecords(next, endpoint);
      for (let i = 0; i < records.length; i += STATE_CHUNK) {
        steps.push(() => {
          const part = JSON.stringify(records.slice(i, i + STATE_CHUNK));
          body.push(part.slice(1, -1));
        });
      }
    }
    steps.push(() => this.writeAlertsAhead(exchange));
    let error: string | undefined;
    steps.push(() => {
      error = this.writeAlerts(exchange, () => {
        if (deferred.length > 0) store.appendChanges(deferred);
        if (saveSnapshot) store.saveSnapshot(next, endpoint, `[${body.join(',')}]`);
        if (endpoint === 'tickers' && at - state.historySavedAt >= HISTORY_SAVE_MS) {
          store.saveHistory(exchange, state.history.symbols);
          state.historySavedAt = at;
        }
      }, key);
      if (error !== undefined && saveSnapshot) this.unsavedSnapshots.set(key, { snapshot: next, part: endpoint });
      if (error !== undefined) this.keepUnsaved(deferred);
    });
    steps.push(() => {
      notify.push(...this.storeNow(exchange, at, error));
      if (notify.length > 0) this.options.notify(notify);
    });
    this.later(steps);
    // Heard now, with the snapshot they belong to: the views (when each network closed) and the
    // counters must never show this snapshot without its changes, however long the writes take.
    if (changes.length > 0) this.options.onChanges?.(exchange, changes);
    return { snapshot: next, outcome: 'accepted' };
  }

  onFailure(poll: Pick<PollFailure, 'exchange' | 'endpoint' | 'at' | 'durationMs'> & { error: { kind: string; message: string } }): void {
    const state = this.state(poll.exchange);
    state.failures[poll.endpoint] += 1;
    this.judgeBuiltins(poll.exchange, poll.endpoint, poll.at, poll.error.message);
  }

  /**
   * Writes state in one transaction, with whatever earlier writes could not take (see
   * writeUnsaved); returns the error when it failed. A store that cannot be written (disk
   * full, read-only) is logged once per streak, counted, raises StoreFailing, and does not stop
   * the watcher: notifications still go out (held in memory), the changes wait in memory
   * (bounded), and writing resumes when the disk does.
   */
  private write(fn: () => void, skip?: string): string | undefined {
    try {
      this.options.store.transaction(() => {
        this.writeUnsaved(skip);
        fn();
      });
      if (this.storeFailing) this.options.logger.info({ changes: this.unsavedChanges.length }, 'state store writable again; what waited in memory is written');
      this.storeFailing = false;
      this.unsavedChanges = [];
      this.unsavedSnapshots.clear();
      return undefined;
    } catch (err) {
      const error = errorMessage(err);
      if (!this.storeFailing) this.options.logger.error({ error }, 'cannot write the state store; watching and notifying go on, changes are kept in memory until it can');
      this.storeFailing = true;
      this.options.onStoreError?.();
      return error;
    }
  }

  /**
   * What earlier writes could not take (change rows, snapshot parts), inside the transaction of
   * the next write, whichever it is: the changes and the snapshot that showed them land together.
   * `skip` is the part the caller writes itself (newer).
   */
  private writeUnsaved(skip?: string): void {
    const store = this.options.store;
    for (const [key, u] of this.unsavedSnapshots) if (key !== skip) store.saveSnapshot(u.snapshot, u.part);
    if (this.unsavedChanges.length > 0) store.appendChanges(this.unsavedChanges);
  }

  /** Changes whose write failed wait for the next write; the oldest go past the limit, counted. */
  private keepUnsaved(changes: readonly Change[]): void {
    this.unsavedChanges.push(...changes);
    const limit = this.options.unsavedChangesLimit ?? UNSAVED_CHANGES_LIMIT;
    const excess = this.unsavedChanges.length - limit;
    if (excess <= 0) return;
    this.unsavedChanges.splice(0, excess);
    this.options.logger.error({ rows: excess, limit }, 'change history rows dropped: the store has failed for longer than memory holds them');
    this.options.onHistoryDropped?.(excess);
  }

  /** StoreFailing for an exchange: firing while its state cannot be written. */
  private storeNow(exchange: string, at: number, error: string | undefined): Alert[] {
    const scope: Scope = { exchange, rules: new Map([[STORE_FAILING_RULE.id, STORE_FAILING_RULE]]), known: this.known() };
    const told = this.apply({ active: error === undefined ? [] : [storeFailingInstance(exchange, error)], events: [] }, scope, at);
    // Resolved by a write that succeeded: the stored alerts must not keep it firing.
    if (error === undefined && told.length > 0) this.writeAlerts(exchange);
    return told;
  }

  private judgeBuiltins(exchange: string, endpoint: Endpoint, at: number, error?: string): void {
    const notify = this.builtinsNow(exchange, endpoint, at, error);
    this.later([
      () => {
        const failed = this.writeAlerts(exchange);
        notify.push(...this.storeNow(exchange, at, failed));
        if (notify.length > 0) this.options.notify(notify);
      },
    ]);
  }

  /**
   * Writes an exchange's alerts (with `also` in the same transaction): only those that are not
   * the very objects the store holds, and deletes those gone. Lifecycle keeps an alert's
   * identity while nothing about it changes, so a poll during a long outage does not rewrite
   * 8,000 unchanged alerts. Before the first write (or after a failed one) all are rewritten.
   */
  private writeAlerts(exchange: string, also?: () => void, skip?: string): string | undefined {
    const mine = new Map<string, Alert>();
    for (const a of this.alerts.values()) if (a.labels.exchange === exchange) mine.set(a.fingerprint, a);
    const last = this.savedAlerts.get(exchange);
    const changed: Alert[] = [];
    const gone: string[] = [];
    if (last !== undefined) {
      for (const a of mine.values()) if (last.get(a.fingerprint) !== a) changed.push(a);
      for (const fp of last.keys()) if (!mine.has(fp)) gone.push(fp);
    }
    const same = last !== undefined && changed.length === 0 && gone.length === 0;
    if (same && also === undefined) return undefined;
    const store = this.options.store;
    const error = this.write(() => {
      also?.();
      if (last === undefined) store.saveAlerts(exchange, mine.values());
      else if (!same) store.updateAlerts(exchange, changed, gone);
    }, skip);
    // After a failed write nothing counts as written: the next decision writes them all again.
    if (error !== undefined) this.savedAlerts.delete(exchange);
    else this.savedAlerts.set(exchange, mine);
    return error;
  }

  /**
   * The steps that write, ahead of a state write, the alerts of an exchange that changed,
   * STATE_CHUNK per turn (each its own transaction; see onSuccess for what a crash between them
   * means). Nothing ahead when few changed, before the first write, or while the store fails:
   * the state write takes them.
   */
  private writeAlertsAhead(exchange: string): Step[] {
    const last = this.savedAlerts.get(exchange);
    if (last === undefined || this.storeFailing) return [];
    const changed: Alert[] = [];
    for (const a of this.alerts.values()) if (a.labels.exchange === exchange && last.get(a.fingerprint) !== a) changed.push(a);
    if (changed.length <= STATE_CHUNK) return [];
    const steps: Step[] = [];
    for (let i = 0; i < changed.length; i += STATE_CHUNK) {
      const part = changed.slice(i, i + STATE_CHUNK);
      steps.push(() => {
        const saved = this.savedAlerts.get(exchange);
        if (saved === undefined || this.storeFailing) return;
        if (this.write(() => this.options.store.updateAlerts(exchange, part, [])) !== undefined) this.savedAlerts.delete(exchange);
        else for (const a of part) saved.set(a.fingerprint, a);
      });
    }
    return steps;
  }

  /** Resolves once every write and notification decided so far is done. */
  settled(): Promise<void> {
    return this.draining ?? Promise.resolve();
  }

  /**
   * Runs the writes and notifications of a decision in later turns of the event loop, one step
   * per turn and in decision order: a poll that closes 8,000 networks does not hold health
   * checks, scrapes and answers already in behind one long write, and a later decision's state
   * is never written before an earlier one's.
   */
  private later(steps: readonly Step[]): void {
    this.backlog.push(...steps);
    this.draining ??= (async () => {
      for (let step = this.backlog.shift(); step !== undefined; step = this.backlog.shift()) {
        await nextTurn();
        try {
          const more = step();
          // Steps a step decided on run next, before anything decided later.
          if (more !== undefined) this.backlog.unshift(...more);
        } catch (err) {
          this.options.logger.error({ err }, 'internal error while writing or handing on a poll');
        }
      }
      this.draining = undefined;
    })();
  }

  /** Whether a rule measures this symbol over time (move_percent, stale_for): decided once per symbol. */
  private sampled(exchange: string, symbol: string, state: ExchangeState): boolean {
    let yes = state.sampled.get(symbol);
    if (yes === undefined) {
      yes = this.ruleList.some(
        (r) => r.condition.type === 'ticker' && (r.condition.measure === 'move_percent' || r.condition.measure === 'stale_for') && matchesAll(r.match, { exchange, symbol, kind: r.condition.measure }),
      );
      state.sampled.set(symbol, yes);
    }
    return yes;
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
      s = { suspect: {}, failures: { coins: 0, tickers: 0 }, history: new TickerHistory(historyKeep(this.ruleList)), historySavedAt: 0, tickersSavedAt: 0, sampled: new Map() };
      this.exchanges.set(exchange, s);
    }
    return s;
  }
}

/** Samples are kept for the longest move_percent window (plus a margin). */
function historyKeep(rules: readonly Rule[]): number {
  let longest = 0;
  for (const r of rules) if (r.condition.type === 'ticker' && r.condition.windowMs !== undefined) longest = Math.max(longest, r.condition.windowMs);
  return longest === 0 ? 0 : longest + 60_000;
}

/** One step of later(): a write or a hand-over, which may return further steps to run next. */
type Step = () => Step[] | void;

/**
 * evaluateRules for one rule, in parts of EVALUATE_CHUNK coins (a state rule) or changes (a
 * change rule), one turn of the event loop each: in a storm one rule holds on 8,378 networks.
 * The parts are independent (a state holds per network; a change event is per change), so the
 * result is the whole evaluation, in the same order. Ticker rules (a watch list's `missing` needs
 * every ticker at once) are evaluated whole.
 */
async function evaluateInTurns(input: EvaluationInput): Promise<Evaluation> {
  const type = input.rules[0]?.condition.type;
  const out: Evaluation = { active: [], events: [] };
  const add = (e: Evaluation): void => {
    out.active.push(...e.active);
    out.events.push(...e.events);
  };
  if (type === 'state' && input.domain === 'coins' && input.snapshot.coins.size > EVALUATE_CHUNK) {
    const coins = [...input.snapshot.coins];
    for (let i = 0; i < coins.length; i += EVALUATE_CHUNK) {
      if (i > 0) await nextTurn();
      add(evaluateRules({ ...input, snapshot: { ...input.snapshot, coins: new Map(coins.slice(i, i + EVALUATE_CHUNK)) } }));
    }
    return out;
  }
  if (type === 'change' && input.changes.length > EVALUATE_CHUNK) {
    for (let i = 0; i < input.changes.length; i += EVALUATE_CHUNK) {
      if (i > 0) await nextTurn();
      add(evaluateRules({ ...input, changes: input.changes.slice(i, i + EVALUATE_CHUNK) }));
    }
    return out;
  }
  return evaluateRules(input);
}
