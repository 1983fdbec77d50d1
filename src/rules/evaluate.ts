import type { Change } from '../snapshot/changes';
import { blankToNull } from '../snapshot/diff';
import type { CoinRecord, NetworkRecord, Snapshot, TickerRecord } from '../snapshot/model';
import type { TickerHistory } from './history';
import { matchesAll } from './match';
import { measure } from './measure';
import { NETWORK_STATES, type Condition, type Rule, type StateKind } from './model';
import { literalValues } from '../lib/pattern';
import type { TemplateFields } from '../lib/template';
import { baseLabels, type Instance } from './instance';

/** Which part of a snapshot was just polled: state rules follow coins, ticker rules tickers. */
export type Domain = 'coins' | 'tickers';

export type { Instance } from './instance';

export interface EvaluationInput {
  rules: readonly Rule[];
  domain: Domain;
  snapshot: Snapshot;
  changes: readonly Change[];
  history: TickerHistory;
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
}

export function evaluationMemo(): EvaluationMemo {
  return { states: new WeakMap(), symbols: new WeakMap(), measures: new WeakMap() };
}

/** Whether a ticker measure reads the ticker alone (not the samples, not the time). */
function measuresTickerOnly(kind: TickerCondition['measure']): boolean {
  return kind !== 'move_percent' && kind !== 'stale_for' && kind !== 'missing';
}

/** measure(), once per ticker object for the measures that read the ticker alone. */
function measured(memo: EvaluationMemo, c: TickerCondition, t: TickerRecord, input: EvaluationInput): number | undefined {
  const kind = c.measure as Exclude<TickerCondition['measure'], 'missing'>;
  if (!measuresTickerOnly(kind)) return measure(kind, t, input.now, input.history, c.windowMs);
  let values = memo.measures.get(t);
  if (values === undefined) memo.measures.set(t, (values = new Map()));
  if (values.has(kind)) return values.get(kind);
  const value = measure(kind, t, input.now, input.history, c.windowMs);
  values.set(kind, value);
  return value;
}

/** What `rule`'s match said of `exchange`'s symbols so far (see evaluateTicker). */
function symbolsTaken(memo: EvaluationMemo, rule: Rule, exchange: string): Map<string, boolean> {
  let byExchange = memo.symbols.get(rule);
  if (byExchange === undefined) memo.symbols.set(rule, (byExchange = new Map()));
  let taken = byExchange.get(exchange);
  if (taken === undefined) byExchange.set(exchange, (taken = new Map()));
  return taken;
}

export interface Evaluation {
  /** Conditions that hold now, for the rules of this domain. */
  active: Instance[];
  /** Change events, one per matching change. */
  events: Instance[];
}

/** Pure: snapshot, changes, history and `now` in; what holds and what happened out. */
export function evaluateRules(input: EvaluationInput): Evaluation {
  const active: Instance[] = [];
  const events: Instance[] = [];
  const memo = input.memo ?? evaluationMemo();
  for (const rule of input.rules) {
    const c = rule.condition;
    if (c.type === 'state' && input.domain === 'coins') evaluateState(rule, c.state, input, memo, active);
    else if (c.type === 'ticker' && input.domain === 'tickers') evaluateTicker(rule, c, input, active);
    else if (c.type === 'change') evaluateChanges(rule, c.kinds, input, events);
  }
  return { active, events };
}

/** Which rules an evaluation of a domain speaks for (the others' alerts stand as they are). */
export function ruleInDomain(rule: Rule, domain: Domain): boolean {
  const t = rule.condition.type;
  return t === 'state' ? domain === 'coins' : t === 'ticker' ? domain === 'tickers' : false;
}

/**
 * Whether a rule's evaluation depends on the snapshot's part alone (and the config): state
 * rules, and ticker rules that measure the ticker itself without hysteresis. Not so: change
 * rules (they read the changes), move_percent and stale_for (the samples and `now`), a
 * hysteresis band (whether the alert is active).
 */
export function readsSnapshotOnly(rule: Rule): boolean {
  const c = rule.condition;
  if (c.type === 'state') return true;
  if (c.type !== 'ticker') return false;
  return c.measure !== 'move_percent' && c.measure !== 'stale_for' && c.hysteresis === 0;
}

/**
 * Whether a rule's evaluation depends on the snapshot's part, the config and which of its
 * alerts are active alone: a ticker rule with hysteresis on a measure of the ticker itself
 * (the band it judges by depends on whether the alert is active).
 */
export function readsSnapshotAndActive(rule: Rule): boolean {
  const c = rule.condition;
  return c.type === 'ticker' && measuresTickerOnly(c.measure) && c.hysteresis !== 0;
}

const noChain = (): null => null;

function networkFields(coin: CoinRecord, n: NetworkRecord, chain: string | null): TemplateFields {
  return {
    coin: coin.coin,
    coin_name: coin.name,
    network: n.network,
    chain,
    network_name: n.name,
    deposit_desc: blankToNull(n.depositDesc),
    withdraw_desc: blankToNull(n.withdrawDesc),
    deposit_enabled: n.depositEnable,
    withdraw_enabled: n.withdrawEnable,
    withdraw_fee: n.withdrawFee,
    withdraw_min: n.withdrawMin,
  };
}

function networkHolds(state: StateKind, n: NetworkRecord): boolean {
  switch (state) {
    case 'deposit_disabled':
      return !n.depositEnable;
    case 'withdraw_disabled':
      return !n.withdrawEnable;
    case 'deposit_desc_present':
      return blankToNull(n.depositDesc) !== null;
    case 'withdraw_desc_present':
      return blankToNull(n.withdrawDesc) !== null;
    default:
      return false;
  }
}

/** Which network states hold on some network of the coin, one bit per NETWORK_STATES entry (see EvaluationMemo). */
function statesOf(coin: CoinRecord, memo: EvaluationMemo): number {
  let bits = memo.states.get(coin);
  if (bits === undefined) {
    bits = 0;
    for (const n of coin.networkList) NETWORK_STATES.forEach((state, i) => {
      if (networkHolds(state, n)) bits = (bits as number) | (1 << i);
    });
    memo.states.set(coin, bits);
  }
  return bits;
}

function evaluateState(rule: Rule, state: StateKind, input: EvaluationInput, memo: EvaluationMemo, out: Instance[]): void {
  const exchange = input.snapshot.exchange;
  const perCoin = state === 'deposit_all_disabled' || state === 'withdraw_all_disabled';
  const chainOf = input.chainOf ?? noChain;
  const bit = perCoin ? 0 : 1 << NETWORK_STATES.indexOf(state as (typeof NETWORK_STATES)[number]);
  for (const coin of input.snapshot.coins.values()) {
    if (!perCoin && (statesOf(coin, memo) & bit) === 0) continue;
    if (perCoin) {
      const holds = state === 'deposit_all_disabled' ? !coin.depositAllEnable : !coin.withdrawAllEnable;
      if (!holds) continue;
      const where = { coin: coin.coin, kind: state };
      if (!matchesAll(rule.match, { exchange, ...where })) continue;
      out.push({
        rule,
        entity: `${exchange}\u0000${coin.coin}`,
        labels: baseLabels(rule, exchange, where),
        fields: { exchange, kind: state, coin: coin.coin, coin_name: coin.name },
        value: 1,
      });
      continue;
    }
    for (const n of coin.networkList) {
      if (!networkHolds(state, n)) continue;
      const chain = chainOf(n.network);
      const where = { coin: coin.coin, network: n.network, chain: chain ?? undefined, kind: state };
      if (!matchesAll(rule.match, { exchange, ...where })) continue;
      out.push({
        rule,
        entity: `${exchange}\u0000${coin.coin}\u0000${n.network}`,
        labels: baseLabels(rule, exchange, where),
        fields: { exchange, kind: state, ...networkFields(coin, n, chain) },
        value: 1,
      });
    }
  }
}

type TickerCondition = Extract<Condition, { type: 'ticker' }>;

const NOT_BEYOND = { holds: false, threshold: undefined } as const;

/**
 * True when the value is beyond a threshold; once active, it must come back inside by the
 * hysteresis margin. `wasActive` is asked only when the answer depends on it: a value outside
 * even the widened band never holds, and one beyond `above` always does.
 */
function beyondOnce(c: TickerCondition, value: number, wasActive: () => boolean): { holds: boolean; threshold: number | undefined } {
  if (c.hysteresis === 0) return beyond(c, value, 0);
  if (!beyond(c, value, c.hysteresis).holds) return NOT_BEYOND;
  if (c.above !== undefined && value > c.above) return { holds: true, threshold: c.above };
  return beyond(c, value, wasActive() ? c.hysteresis : 0);
}

function beyond(c: TickerCondition, value: number, margin: number): { holds: boolean; threshold: number | undefined } {
  if (c.above !== undefined && value > c.above - margin) return { holds: true, threshold: c.above };
  if (c.below !== undefined && value < c.below + margin) return { holds: true, threshold: c.below };
  return { holds: false, threshold: undefined };
}

function tickerFields(t: TickerRecord): TemplateFields {
  return {
    symbol: t.symbol,
    last_price: t.lastPrice,
    open_price: t.openPrice,
    bid_price: t.bidPrice,
    ask_price: t.askPrice,
    volume: t.volume,
    quote_volume: t.quoteVolume,
  };
}

function evaluateTicker(rule: Rule, c: TickerCondition, input: EvaluationInput, out: Instance[]): void {
  const exchange = input.snapshot.exchange;
  if (c.measure === 'missing') {
    for (const symbol of expectedFor(rule, input.expectedSymbols)) {
      // Unknown (set aside on the first answer, no value yet) is not missing.
      if (input.snapshot.tickers.has(symbol) || input.snapshot.unknownSymbols?.has(symbol) === true || !matchesAll(rule.match, { exchange, symbol, kind: 'missing' })) continue;
      out.push({
        rule,
        entity: `${exchange}\u0000${symbol}`,
        labels: baseLabels(rule, exchange, { symbol, kind: 'missing' }),
        fields: { exchange, kind: 'missing', symbol },
        value: 1,
      });
    }
    return;
  }
  // A rule's match is asked once per symbol, not every poll.
  const memo = input.memo ?? evaluationMemo();
  const taken = rule.match.length > 0 ? symbolsTaken(memo, rule, exchange) : undefined;
  for (const t of input.snapshot.tickers.values()) {
    if (taken !== undefined) {
      let yes = taken.get(t.symbol);
      if (yes === undefined) taken.set(t.symbol, (yes = matchesAll(rule.match, { exchange, symbol: t.symbol, kind: c.measure })));
      if (!yes) continue;
    }
    const value = measured(memo, c, t, input);
    if (value === undefined) continue;
    const { holds, threshold } = beyondOnce(c, value, () => input.wasActive(rule.id, `${exchange}\u0000${t.symbol}`));
    if (!holds) continue;
    out.push({
      rule,
      entity: `${exchange}\u0000${t.symbol}`,
      labels: baseLabels(rule, exchange, { symbol: t.symbol, kind: c.measure }),
      fields: { exchange, kind: c.measure, ...tickerFields(t), value: round(value), threshold, window: c.windowMs !== undefined ? `${c.windowMs / 1000}s` : undefined },
      value,
    });
  }
}

/** The symbols a `missing` rule watches: the expected set, narrowed by literal symbols in its match. */
function expectedFor(rule: Rule, expected: ReadonlySet<string>): string[] {
  const m = rule.match.find((x) => x.label === 'symbol');
  const named = m !== undefined ? literalValues(m.pattern) : [];
  return [...new Set([...expected, ...named])];
}

function evaluateChanges(rule: Rule, kinds: readonly string[], input: EvaluationInput, out: Instance[]): void {
  const exchange = input.snapshot.exchange;
  const coins = input.snapshot.coins;
  const chainOf = input.chainOf ?? noChain;
  for (const ch of input.changes) {
    if (!kinds.includes(ch.kind)) continue;
    const chain = ch.network !== undefined ? chainOf(ch.network) : null;
    const where = { coin: ch.coin, network: ch.network, chain: chain ?? undefined, symbol: ch.symbol, kind: ch.kind };
    if (!matchesAll(rule.match, { exchange, ...where })) continue;
    const coin = ch.coin !== undefined ? coins.get(ch.coin) : undefined;
    const net = ch.network !== undefined ? coin?.networkList.find((n) => n.network === ch.network) : undefined;
    out.push({
      rule,
      entity: `${exchange}\u0000${ch.coin ?? ''}\u0000${ch.network ?? ''}\u0000${ch.symbol ?? ''}\u0000${ch.kind}\u0000${ch.at}`,
      labels: baseLabels(rule, exchange, where),
      fields: {
        exchange,
        ...(coin !== undefined && net !== undefined ? networkFields(coin, net, chain) : { coin: ch.coin, coin_name: coin?.name, network: ch.network, chain }),
        symbol: ch.symbol,
        kind: ch.kind,
        before: ch.before,
        after: ch.after,
        at: ch.at,
      },
      value: null,
    });
  }
}

function round(v: number): number {
  return Math.round(v * 10_000) / 10_000;
}
