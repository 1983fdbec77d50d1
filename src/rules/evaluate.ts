import { blankToNull } from '../snapshot/diff';
import type { CoinRecord, NetworkRecord } from '../snapshot/model';
import type { TemplateFields } from '../lib/template';
import { evaluateTicker } from './evaluate-ticker';
import type { Domain, Evaluation, EvaluationInput } from './evaluation';
import { baseLabels, type Instance } from './instance';
import { matchesAll } from './match';
import { measuresOverTime, type Rule, type StateKind } from './model';

export type { Instance } from './instance';
export type { Domain, Evaluation, EvaluationInput } from './evaluation';

/** Pure: snapshot, changes, history and `now` in; what holds and what happened out. */
export function evaluateRules(input: EvaluationInput): Evaluation {
  const active: Instance[] = [];
  const events: Instance[] = [];
  for (const rule of input.rules) {
    const c = rule.condition;
    if (c.type === 'state' && input.domain === 'coins') evaluateState(rule, c.state, input, active);
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
 * Whether a rule's evaluation depends on the snapshot's part alone (and the settings, and which
 * of its own alerts are active): state rules, and ticker rules that measure the ticker itself.
 * Not so: change rules (they read the changes), move_percent and stale_for (the samples and the
 * time). Judged again on the same part, such a rule without keep_firing_for holds for the same
 * instances: those active after a judgement are exactly those that held (a hysteresis band
 * keeps each of them holding, and nothing else became active).
 */
export function readsPartAlone(rule: Rule): boolean {
  const c = rule.condition;
  return c.type === 'state' || (c.type === 'ticker' && !measuresOverTime(c.measure));
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

function evaluateState(rule: Rule, state: StateKind, input: EvaluationInput, out: Instance[]): void {
  const exchange = input.snapshot.exchange;
  const perCoin = state === 'deposit_all_disabled' || state === 'withdraw_all_disabled';
  const chainOf = input.chainOf ?? noChain;
  for (const coin of input.snapshot.coins.values()) {
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

