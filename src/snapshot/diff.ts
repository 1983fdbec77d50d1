import { inTurns } from '../lib/timer';
import type { Change, ChangeKind, ChangeValue } from './changes';
import { sameDecimal } from './decimal';
import { unknownKey, type CoinRecord, type NetworkRecord, type Snapshot } from './model';

/**
 * Every change between two snapshots of one exchange, with the values before and after.
 * Pure. Coins and tickers are compared only once both snapshots have them: the first
 * snapshot of an exchange is the baseline and yields no changes. One upstream change is one
 * Change: a listed coin is one `coin_listed`, not also a `network_added` per network.
 */
export function diff(prev: Snapshot, next: Snapshot): Change[] {
  const steps = diffSteps(prev, next);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** Coins compared per turn of the event loop by diffInTurns. */
const COINS_PER_TURN = 500;

/**
 * diff, COINS_PER_TURN changed coins per turn of the event loop: in a storm every coin
 * changed, and comparing 4,000 at once held the loop 50-100 ms. The same changes, in the same order.
 */
export function diffInTurns(prev: Snapshot, next: Snapshot): Promise<Change[]> {
  return inTurns(diffSteps(prev, next));
}

/** diff, pausing (a yield) after every COINS_PER_TURN changed coins. */
function* diffSteps(prev: Snapshot, next: Snapshot): Generator<void, Change[], void> {
  const changes: Change[] = [];
  if (prev.coinsAt !== null && next.coinsAt !== null && prev.coins !== next.coins) yield* diffCoins(prev, next, next.coinsAt, changes);
  if (prev.tickersAt !== null && next.tickersAt !== null && prev.tickers !== next.tickers) diffTickers(prev, next, next.tickersAt, changes);
  return changes;
}

function* diffCoins(prev: Snapshot, next: Snapshot, at: number, out: Change[]): Generator<void, void, void> {
  const exchange = next.exchange;
  let compared = 0;
  for (const [coin, after] of next.coins) {
    const before = prev.coins.get(coin);
    if (before !== undefined && before !== after && ++compared % COINS_PER_TURN === 0) yield;
    // A coin (or network) that was unknown (set aside on the first answer) is not new now.
    if (before === undefined) {
      if (prev.unknownCoins?.has(unknownKey(coin)) !== true) out.push({ kind: 'coin_listed', exchange, coin, before: null, after: after.name ?? coin, at });
    } else if (before !== after) diffCoin(exchange, before, after, at, out, prev.unknownCoins);
  }
  for (const [coin, before] of prev.coins) {
    if (!next.coins.has(coin)) out.push({ kind: 'coin_delisted', exchange, coin, before: before.name ?? coin, after: null, at });
  }
}

function diffCoin(exchange: string, before: CoinRecord, after: CoinRecord, at: number, out: Change[], unknown?: ReadonlySet<string>): void {
  const coin = after.coin;
  const push = (kind: ChangeKind, b: ChangeValue, a: ChangeValue, network?: string): void => {
    const change: Change = { kind, exchange, coin, before: b, after: a, at };
    if (network !== undefined) change.network = network;
    out.push(change);
  };
  if (before.depositAllEnable !== after.depositAllEnable) push(after.depositAllEnable ? 'deposit_all_enabled' : 'deposit_all_disabled', before.depositAllEnable, after.depositAllEnable);
  if (before.withdrawAllEnable !== after.withdrawAllEnable) push(after.withdrawAllEnable ? 'withdraw_all_enabled' : 'withdraw_all_disabled', before.withdrawAllEnable, after.withdrawAllEnable);

  const old = new Map(before.networkList.map((n) => [n.network, n]));
  const now = new Map(after.networkList.map((n) => [n.network, n]));
  for (const [name, n] of now) {
    const o = old.get(name);
    if (o === undefined) {
      if (unknown?.has(unknownKey(coin, name)) !== true) push('network_added', null, n.name ?? name, name);
    }
    else if (o !== n) diffNetwork(o, n, push);
  }
  for (const [name, o] of old) if (!now.has(name)) push('network_removed', o.name ?? name, null, name);

  const oldDefault = defaultOf(before);
  const newDefault = defaultOf(after);
  if (oldDefault !== newDefault && oldDefault !== null && newDefault !== null) push('default_network_changed', oldDefault, newDefault, newDefault);
}

function defaultOf(c: CoinRecord): string | null {
  return c.networkList.find((n) => n.isDefault)?.network ?? null;
}

type Push = (kind: ChangeKind, before: ChangeValue, after: ChangeValue, network?: string) => void;

function diffNetwork(o: NetworkRecord, n: NetworkRecord, push: Push): void {
  const net = n.network;
  if (o.depositEnable !== n.depositEnable) push(n.depositEnable ? 'deposit_enabled' : 'deposit_disabled', o.depositEnable, n.depositEnable, net);
  if (o.withdrawEnable !== n.withdrawEnable) push(n.withdrawEnable ? 'withdraw_enabled' : 'withdraw_disabled', o.withdrawEnable, n.withdrawEnable, net);
  diffDesc('deposit', o.depositDesc, n.depositDesc, net, push);
  diffDesc('withdraw', o.withdrawDesc, n.withdrawDesc, net, push);
  if (!sameDecimal(o.withdrawFee, n.withdrawFee)) push('withdraw_fee_changed', o.withdrawFee, n.withdrawFee, net);
  if (!sameDecimal(o.withdrawMin, n.withdrawMin)) push('withdraw_min_changed', o.withdrawMin, n.withdrawMin, net);
  if (o.minConfirm !== n.minConfirm) push('min_confirm_changed', o.minConfirm, n.minConfirm, net);
  if ((o.contractAddress ?? '') !== (n.contractAddress ?? '')) push('contract_address_changed', o.contractAddress, n.contractAddress, net);
  if ((o.withdrawTag ?? false) !== (n.withdrawTag ?? false)) push('withdraw_tag_changed', o.withdrawTag, n.withdrawTag, net);
}

/** A message is "no message" when null or blank; set, changed and cleared are events of their own. */
function diffDesc(direction: 'deposit' | 'withdraw', before: string | null, after: string | null, net: string, push: Push): void {
  const b = blankToNull(before);
  const a = blankToNull(after);
  if (b === a) return;
  if (b === null) push(`${direction}_desc_set`, null, a, net);
  else if (a === null) push(`${direction}_desc_cleared`, b, null, net);
  else push(`${direction}_desc_changed`, b, a, net);
}

export function blankToNull(text: string | null): string | null {
  return text === null || text.trim() === '' ? null : text;
}

function diffTickers(prev: Snapshot, next: Snapshot, at: number, out: Change[]): void {
  const exchange = next.exchange;
  for (const [symbol, t] of next.tickers) {
    if (!prev.tickers.has(symbol) && prev.unknownSymbols?.has(symbol) !== true) out.push({ kind: 'symbol_listed', exchange, symbol, before: null, after: t.lastPrice, at });
  }
  for (const [symbol, t] of prev.tickers) {
    if (!next.tickers.has(symbol)) out.push({ kind: 'symbol_delisted', exchange, symbol, before: t.lastPrice, after: null, at });
  }
}
