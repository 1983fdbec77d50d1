/**
 * The poll path's one decision: `step(state, input, now)`. An exchange's answer (or a failed
 * poll, or the outcome of a write, or an exchange no longer watched) and the state before it
 * in; the next state, the changes, the alert transitions and the effects (what to write, what
 * to tell, what to log) out. Synchronous and pure: no clock (time is `now`), no logger, no
 * store, nothing kept between calls; the caller applies the effects and never calls back.
 *
 * For an answer: the guard (an empty list is a failure, a sudden shrink is held as suspect),
 * the merge into the snapshot, the diff, the rules (the transfer rule reads the other
 * exchange's snapshot from the state), the alert lifecycle, and the built-in alerts
 * (UpstreamAnomaly, ExchangeDown, StoreFailing).
 */
import { AlertsDraft, told, type Transition } from '../alerts/lifecycle';
import type { Alert } from '../alerts/alert';
import { evaluateRules, readsPartAlone, ruleInDomain, type Evaluation, type Instance } from '../rules/evaluate';
import { applyRead, type MentionsOf, type NoticeBook, type ReadOptions } from '../notices/book';
import type { Announcement, Maintenance, NoticeRead } from '../notices/model';
import { mentionLists, mentions } from '../notices/mentions';
import { oneWindowEach } from '../notices/same-window';
import { announcementEvents, closureRule, noticeInstances, withNotices } from '../rules/notices';
import { evaluateTransfer } from '../rules/evaluate-transfer';
import { historyKeep, recordSamples, sampledTickers, type Samples } from '../rules/ticker-samples';
import type { Rule } from '../rules/model';
import type { Change } from '../snapshot/changes';
import { diff } from '../snapshot/diff';
import { judge } from '../snapshot/guard';
import { applyCoins, applyTickers, type Answer } from '../snapshot/merge';
import type { CoinRecord, Endpoint, Snapshot, TickerRecord } from '../snapshot/model';
import { anyFlapping, percentChange, recordFlips, thingOfLabels, type FlapBook } from '../rules/flapping';
import { builtinEntity, builtinInstance, ENDPOINT_RULES, FLAPPING_RULES, flappingInstance, STORE_FAILING_RULE, storeFailingInstance } from '../rules/builtin';
import { DEFAULT_EXPLAINS_FOR_MS, exchangeOf, flappingOf, guardOf, type ExchangeState, type PollState } from './state';

/** Consecutive failed polls of an endpoint before ExchangeDown fires. */
export const DOWN_AFTER_FAILURES = 3;
/** How often an unchanged ticker list, and the ticker samples, are handed to the store. */
const SAVE_EVERY_MS = 60_000;

export type StepInput =
  /** An exchange's answer, decoded: its records and the records it set aside. */
  | { type: 'answer'; exchange: string; endpoint: 'coins'; answer: Answer<CoinRecord> }
  | { type: 'answer'; exchange: string; endpoint: 'tickers'; answer: Answer<TickerRecord> }
  /** A poll that failed (an error of that poll, never an empty exchange). */
  | { type: 'failure'; exchange: string; endpoint: Endpoint; error: string }
  /** How the write of an exchange's state went: `error` when the store refused it. */
  | { type: 'written'; exchange: string; error: string | undefined }
  /** An exchange no longer watched: its alerts resolve, its state goes. */
  | { type: 'drop'; exchange: string }
  /** One read of one of the exchange's notice sources, decoded (a failed read is no input: notices.md section 6). */
  | { type: 'notices'; exchange: string; source: string; read: NoticeRead; options: ReadOptions };

/**
 * What the input was: an answer taken (`accepted`), held as suspect (`held`), or refused as an
 * empty list (`empty`, a failure of that poll); a failed poll; a write's outcome; a drop.
 */
export type Outcome = 'accepted' | 'held' | 'empty' | 'failed' | 'written' | 'dropped' | 'noticed';

/** What the store must take, in one transaction. */
export interface Write {
  /** Changes for the history, in order. */
  readonly changes: readonly Change[];
  /** A part of a snapshot to keep (the writer writes what changed since it last wrote it). */
  readonly snapshot?: { readonly snapshot: Snapshot; readonly part: Endpoint };
  /** An exchange's ticker samples, written whole. */
  readonly samples?: { readonly exchange: string; readonly samples: Samples };
  /** An exchange's notice book, written whole. */
  readonly notices?: { readonly exchange: string; readonly book: NoticeBook };
  /** Alerts to write (by fingerprint) and to delete. */
  readonly alerts: { readonly set: readonly Alert[]; readonly removed: readonly string[] };
  /**
   * Told alerts that nothing else brings back after a restart (change events, resolutions):
   * kept as pending notifications with the state that decided them, until delivery has them in
   * its outbox. A firing alert needs none: it is among the stored alerts, which rejoin their groups.
   */
  readonly pending: readonly Alert[];
}

/** A log line, for the caller to log. */
export interface LogLine {
  readonly level: 'info' | 'warn';
  readonly msg: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

export interface Effects {
  /** Undefined: nothing to write. */
  readonly write: Write | undefined;
  /** Alerts to tell, in decision order (once `write` is done). */
  readonly tell: readonly Alert[];
  readonly log: readonly LogLine[];
  /** Announcements read for the first time, the baseline included (spotwatch_announcements_total counts them). */
  readonly firstRead?: readonly Announcement[];
}

export interface StepResult {
  readonly state: PollState;
  readonly outcome: Outcome;
  readonly changes: readonly Change[];
  readonly transitions: readonly Transition[];
  readonly effects: Effects;
}

/**
 * `now` is the wall clock; `mono`, when the caller has one, the monotonic clock read with it: the
 * alerts that begin here measure their durations on it (alerts/lifecycle.ts). A replay has none.
 */
export function step(state: PollState, input: StepInput, now: number, mono?: number): StepResult {
  switch (input.type) {
    case 'answer':
      return answer(state, input, now, mono);
    case 'failure':
      return failure(state, input.exchange, input.endpoint, input.error, now, mono);
    case 'written':
      return written(state, input.exchange, input.error, now, mono);
    case 'drop':
      return drop(state, input.exchange, now, mono);
    case 'notices':
      return noticed(state, input, now, mono);
  }
}

function answer(state: PollState, input: Extract<StepInput, { type: 'answer' }>, now: number, mono: number | undefined): StepResult {
  const { exchange, endpoint } = input;
  const ex = exchangeOf(state, exchange);
  const prev = ex.snapshot;
  const next = input.endpoint === 'coins' ? applyCoins(prev, input.answer, now) : applyTickers(prev, input.answer, now);
  const verdict = judge(prev, next, endpoint, ex.suspect[endpoint], now, guardOf(state, exchange));
  if (verdict.verdict === 'empty') return failure(state, exchange, endpoint, `${endpoint}: empty list, not taken as real`, now, mono, 'empty');
  const draft = new AlertsDraft(state.alerts, mono);
  const log: LogLine[] = [];
  const failures = { ...ex.failures, [endpoint]: 0 };
  if (verdict.verdict === 'hold') {
    if (ex.suspect[endpoint] === undefined) log.push({ level: 'warn', msg: 'answer shrank suddenly; held as suspect', fields: { exchange, endpoint, ...verdict.suspect } });
    const held: ExchangeState = { ...ex, failures, suspect: { ...ex.suspect, [endpoint]: verdict.suspect } };
    judgeBuiltins(draft, exchange, endpoint, held, now);
    return result(withExchange(state, exchange, held), 'held', [], draft, undefined, log);
  }
  if (verdict.confirmed) log.push({ level: 'warn', msg: 'suspect answer persisted; taking it as real', fields: { exchange, endpoint, ...verdict.confirmed } });
  const suspect = { ...ex.suspect };
  delete suspect[endpoint];

  const changes = diff(prev, next);
  const { rules } = state.settings;
  const samples = endpoint === 'tickers' ? recordSamples(ex.samples, sampledTickers(rules, exchange, next.tickers), now, historyKeep(rules)) : ex.samples;
  // The same map as before (the merge keeps it when no record changed), judged under these
  // settings: the rules that read it alone hold for the same instances, only time moves.
  const partOf = (s: Snapshot): object => (endpoint === 'coins' ? s.coins : s.tickers);
  // A network or symbol that flaps: its alerts held as they are, one Flapping alert instead.
  const flapOptions = flappingOf(state, exchange);
  const flaps = recordFlips(ex.flaps[endpoint], changes, flapOptions);
  const flapping = anyFlapping(flaps);
  const held = flapping ? (labels: Readonly<Record<string, string>>): boolean => flaps.things.get(thingOfLabels(labels) ?? '')?.flapping === true : undefined;
  // While something flaps, and at the poll it settles, alerts held are judged again.
  const same = partOf(prev) === partOf(next) && ex.judged[endpoint] && !flapping && !anyFlapping(ex.flaps[endpoint]);
  const others = (name: string): Snapshot | undefined => (name === exchange ? next : state.exchanges.get(name)?.snapshot);
  const evaluate = (rule: Rule): Evaluation =>
    evaluateRules({
      rules: [rule],
      domain: endpoint,
      snapshot: next,
      changes,
      samples,
      expectedSymbols: state.settings.expectedSymbols.get(exchange) ?? new Set(),
      now,
      wasActive: (ruleId, entity) => draft.rule(exchange, ruleId).has(entity),
      chainOf: (network) => state.settings.chainOf(exchange, network),
    });
  const closures = closureNotices(state, exchange, ex, draft, now);
  for (const rule of rules) {
    const c = rule.condition;
    if (ruleInDomain(rule, endpoint)) {
      if (same && readsPartAlone(rule) && rule.keepFiringForMs === 0) draft.carry(exchange, rule, now);
      else draft.judge(exchange, rule, closures(rule, evaluate(rule).active), now, held);
    } else if (c.type === 'change') {
      if (changes.length > 0) for (const inst of evaluate(rule).events) if (held?.(inst.labels) !== true) draft.event(inst, now);
    } else if (c.type === 'transfer' && endpoint === 'coins' && (c.from === exchange || c.to === exchange)) {
      // A route is judged when either end's coins change; its alert belongs to `from`.
      if (same && rule.keepFiringForMs === 0) draft.carry(c.from, rule, now);
      else draft.judge(c.from, rule, evaluateTransfer(rule, c, others(c.from), others(c.to), state.settings.chainOf).active, now);
    }
  }
  // Alerts of rules that no longer exist resolve.
  const known = new Set(rules.map((r) => r.id));
  for (const ruleId of draft.ruleIds(exchange)) if (!known.has(ruleId) && !ruleId.startsWith('builtin:')) draft.end(exchange, ruleId, now);

  const due = (at: number | null): boolean => at === null || now - at >= SAVE_EVERY_MS;
  const saveTickers = endpoint === 'tickers' && (changes.length > 0 || due(ex.savedAt.tickers));
  const saveSamples = endpoint === 'tickers' && due(ex.savedAt.samples);
  const taken: ExchangeState = {
    ...ex,
    snapshot: next,
    suspect,
    failures,
    samples,
    savedAt: { tickers: saveTickers ? now : ex.savedAt.tickers, samples: saveSamples ? now : ex.savedAt.samples },
    judged: { ...ex.judged, [endpoint]: true },
    flaps: { ...ex.flaps, [endpoint]: flaps },
  };
  judgeFlapping(draft, exchange, endpoint, ex.flaps[endpoint], flaps, flapOptions.window, now);
  judgeBuiltins(draft, exchange, endpoint, taken, now);
  const savePart = endpoint === 'coins' ? next.coins !== prev.coins || prev.coinsAt === null : saveTickers;
  return result(withExchange(state, exchange, taken), 'accepted', changes, draft, {
    changes,
    ...(savePart && { snapshot: { snapshot: next, part: endpoint } }),
    ...(saveSamples && { samples: { exchange, samples } }),
  }, log);
}

/** The book's windows as one each (same-window.ts), merged once for every rule of a step that asks. */
function windowsOnce(book: NoticeBook): () => readonly Maintenance[] {
  let windows: readonly Maintenance[] | undefined;
  return () => (windows ??= oneWindowEach(book.windows.values()));
}

/** A closure rule's instances with the notice that explains each (or `none`); an unannounced rule's, only those nothing explains. */
function closureNotices(state: PollState, exchange: string, ex: ExchangeState, draft: AlertsDraft, now: number, oneEach = windowsOnce(ex.notices)): (rule: Rule, instances: readonly Instance[]) => Instance[] {
  const explainsFor = state.settings.explainsFor?.get(exchange) ?? DEFAULT_EXPLAINS_FOR_MS;
  const chainOf = (network: string): string | null => state.settings.chainOf(exchange, network);
  return (rule, instances) => withNotices(rule, instances, ex.notices, oneEach, chainOf, (entity) => draft.rule(exchange, rule.id).get(entity)?.activeAt, now, explainsFor);
}

/**
 * A read of a notice source: the book takes it; the maintenance and exchange_status rules are
 * judged on the book, announcement rules tell what was published after the baseline, and the
 * closure rules are judged again (a notice may now explain a closure, or no longer).
 */
function noticed(state: PollState, input: Extract<StepInput, { type: 'notices' }>, now: number, mono: number | undefined): StepResult {
  const { exchange } = input;
  const ex = exchangeOf(state, exchange);
  // What a title names, among what this exchange lists (notices.md section 2).
  // What a title may name, built only when a read brings a title to read (a status read does not).
  let lists: ReturnType<typeof mentionLists> | undefined;
  const mentionsOf: MentionsOf = (title, options) => mentions(title, (lists ??= mentionLists(ex.snapshot.coins, ex.snapshot.tickers, (network) => state.settings.chainOf(exchange, network))), options);
  const update = applyRead(ex.notices, exchange, input.source, input.read, now, mentionsOf, input.options);
  const next: ExchangeState = { ...ex, notices: update.book };
  const draft = new AlertsDraft(state.alerts, mono);
  const oneEach = windowsOnce(update.book);
  const closures = closureNotices(state, exchange, next, draft, now, oneEach);
  const flaps = next.flaps.coins;
  const held = anyFlapping(flaps) ? (labels: Readonly<Record<string, string>>): boolean => flaps.things.get(thingOfLabels(labels) ?? '')?.flapping === true : undefined;
  for (const rule of state.settings.rules) {
    const c = rule.condition;
    if (c.type === 'maintenance' || c.type === 'exchange_status') draft.judge(exchange, rule, noticeInstances(rule, exchange, update.book, now, oneEach), now);
    else if (c.type === 'announcement') for (const inst of announcementEvents(rule, exchange, update.published, now)) draft.event(inst, now);
    else if (closureRule(rule) && next.snapshot.coinsAt !== null) {
      const active = evaluateRules({
        rules: [rule],
        domain: 'coins',
        snapshot: next.snapshot,
        changes: [],
        samples: next.samples,
        expectedSymbols: state.settings.expectedSymbols.get(exchange) ?? new Set(),
        now,
        wasActive: (ruleId, entity) => draft.rule(exchange, ruleId).has(entity),
        chainOf: (network) => state.settings.chainOf(exchange, network),
      }).active;
      draft.judge(exchange, rule, closures(rule, active), now, held);
    }
  }
  const changed = update.book !== ex.notices;
  const r = result(withExchange(state, exchange, next), 'noticed', [], draft, changed ? { changes: [], notices: { exchange, book: update.book } } : undefined);
  return update.firstRead.length === 0 ? r : { ...r, effects: { ...r.effects, firstRead: update.firstRead } };
}

function failure(state: PollState, exchange: string, endpoint: Endpoint, error: string, now: number, mono: number | undefined, outcome: 'failed' | 'empty' = 'failed'): StepResult {
  const ex = exchangeOf(state, exchange);
  const failed: ExchangeState = { ...ex, failures: { ...ex.failures, [endpoint]: ex.failures[endpoint] + 1 } };
  const draft = new AlertsDraft(state.alerts, mono);
  judgeBuiltins(draft, exchange, endpoint, failed, now, error);
  return result(withExchange(state, exchange, failed), outcome, [], draft);
}

/** StoreFailing: firing from the first write of an exchange's state that fails, resolved by the first that succeeds. */
function written(state: PollState, exchange: string, error: string | undefined, now: number, mono: number | undefined): StepResult {
  const ex = state.exchanges.get(exchange);
  const draft = new AlertsDraft(state.alerts, mono);
  if (ex === undefined || (ex.storeError === undefined) === (error === undefined)) return result(state, 'written', [], draft);
  draft.judge(exchange, STORE_FAILING_RULE, error === undefined ? [] : [storeFailingInstance(exchange, error)], now);
  return result(withExchange(state, exchange, { ...ex, storeError: error }), 'written', [], draft);
}

function drop(state: PollState, exchange: string, now: number, mono: number | undefined): StepResult {
  const draft = new AlertsDraft(state.alerts, mono);
  for (const ruleId of draft.ruleIds(exchange)) draft.end(exchange, ruleId, now);
  const exchanges = new Map(state.exchanges);
  exchanges.delete(exchange);
  return result({ ...state, exchanges }, 'dropped', [], draft);
}

/** UpstreamAnomaly and ExchangeDown of one endpoint, from what the exchange's state holds. */
function judgeBuiltins(draft: AlertsDraft, exchange: string, endpoint: Endpoint, ex: ExchangeState, now: number, error?: string): void {
  const { UpstreamAnomaly, ExchangeDown } = ENDPOINT_RULES[endpoint];
  const suspect = ex.suspect[endpoint];
  draft.judge(exchange, UpstreamAnomaly, suspect === undefined ? [] : [builtinInstance(UpstreamAnomaly, exchange, endpoint, { before: suspect.before, after: suspect.after })], now);
  const failures = ex.failures[endpoint];
  // Down once DOWN_AFTER_FAILURES polls failed, and down until an answer: an ExchangeDown kept from
  // before a restart (whose count of failures starts again at 0) holds through the failures after
  // it, and resolves with the startsAt it fired with, not at the first failure to fire anew later.
  const down = failures >= DOWN_AFTER_FAILURES || (failures > 0 && draft.rule(exchange, ExchangeDown.id).get(builtinEntity(exchange, endpoint))?.status === 'firing');
  draft.judge(exchange, ExchangeDown, down ? [builtinInstance(ExchangeDown, exchange, endpoint, { error: error ?? 'failing', failures })] : [], now);
}

/** One Flapping alert per network or symbol that flaps (judged only while some did or does). */
function judgeFlapping(draft: AlertsDraft, exchange: string, endpoint: Endpoint, before: FlapBook, after: FlapBook, window: number, now: number): void {
  if (!anyFlapping(before) && !anyFlapping(after)) return;
  const holding = [...after.things.values()].filter((f) => f.flapping).map((f) => flappingInstance(exchange, endpoint, f, percentChange(f.changedAt, after.poll, window), window));
  draft.judge(exchange, FLAPPING_RULES[endpoint], holding, now);
}

function withExchange(state: PollState, exchange: string, ex: ExchangeState): PollState {
  return { ...state, exchanges: new Map(state.exchanges).set(exchange, ex) };
}

function result(state: PollState, outcome: Outcome, changes: readonly Change[], draft: AlertsDraft, write?: Omit<Write, 'alerts' | 'pending'>, log: readonly LogLine[] = []): StepResult {
  if (draft.clamped.length > 0) {
    log = [
      ...log,
      ...draft.clamped.map((a): LogLine => ({
        level: 'warn',
        msg: 'alert resolved before it began by the wall clock (set back since); its end is its start',
        fields: { alertname: a.labels.alertname, fingerprint: a.fingerprint, startsAt: a.startsAt },
      })),
    ];
  }
  const alerts = draft.writes();
  const tell = draft.transitions.filter(told).map((t) => t.alert);
  const pending = tell.filter((a) => a.event || a.status === 'resolved');
  const writes = (write !== undefined && (write.changes.length > 0 || write.snapshot !== undefined || write.samples !== undefined || write.notices !== undefined)) || alerts.set.length > 0 || alerts.removed.length > 0 || pending.length > 0;
  return {
    state: { ...state, alerts: draft.result() },
    outcome,
    changes,
    transitions: draft.transitions,
    effects: { write: writes ? { changes: [], ...write, alerts, pending } : undefined, tell, log },
  };
}
