import type { Snapshot } from '../snapshot/model';
import { baseLabels, type Instance } from './instance';
import type { Condition, Rule } from './model';
import { judgeTransfer, type ChainOf, type TransferRoute } from './transfer';

type TransferCondition = Extract<Condition, { type: 'transfer' }>;

/**
 * A transfer rule's instance (one per rule: `from`, coin, `to`) while its route is closed, and
 * the route as judged (for the views). Unknown and open raise nothing.
 */
export function evaluateTransfer(rule: Rule, c: TransferCondition, from: Snapshot | undefined, to: Snapshot | undefined, chainOf: ChainOf): { route: TransferRoute; active: Instance[] } {
  const route = judgeTransfer(c, from, to, chainOf);
  if (route.state !== 'closed') return { route, active: [] };
  const instance: Instance = {
    rule,
    entity: transferEntity(c),
    labels: baseLabels(rule, c.from, { coin: c.coin, to_exchange: c.to, kind: 'transfer' }),
    fields: {
      exchange: c.from,
      to_exchange: c.to,
      coin: c.coin,
      kind: 'transfer',
      chains: route.chains.map((r) => r.chain).join(', '),
      route: route.description,
    },
    value: 1,
  };
  return { route, active: [instance] };
}

/** The entity of a transfer rule's alert: from, coin, to. */
export function transferEntity(c: Pick<TransferCondition, 'from' | 'coin' | 'to'>): string {
  return `${c.from}\u0000${c.coin}\u0000${c.to}`;
}

/** The route of every transfer rule, judged with the exchanges' snapshots (undefined: not watched). */
export function transferRoutes(rules: readonly Rule[], snapshotOf: (exchange: string) => Snapshot | undefined, chainOf: ChainOf): (TransferRoute & { alert: string })[] {
  const out: (TransferRoute & { alert: string })[] = [];
  for (const rule of rules) {
    const c = rule.condition;
    if (c.type === 'transfer') out.push({ alert: rule.alert, ...judgeTransfer(c, snapshotOf(c.from), snapshotOf(c.to), chainOf) });
  }
  return out;
}
