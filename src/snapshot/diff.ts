import { drain, inTurns } from '../lib/timer';
import { CHANGE_KINDS, type Change, type ChangeKind, type ChangeValue } from './changes';
import { sameDecimal } from './decimal';
import { compile, literal, prop } from '../lib/compile';
import { COIN_FIELDS, fieldsOf, NETWORK_FIELDS, type FieldChange, type FieldSpec, type Sameness } from './fields';
import { unknownKey, type CoinRecord, type Snapshot } from './model';

/**
 * Every change between two snapshots of one exchange, with the values before and after.
 * Pure. Coins and tickers are compared only once both snapshots have them: the first
 * snapshot of an exchange is the baseline and yields no changes. One upstream change is one
 * Change: a listed coin is one `coin_listed`, not also a `network_added` per network.
 */
export function diff(prev: Snapshot, next: Snapshot): Change[] {
  return drain(diffSteps(prev, next));
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

type Push = (kind: ChangeKind, before: ChangeValue, after: ChangeValue, network?: string) => void;

/** The changes between two records of one key, field by field, as the field list says (`net`: the network, for a network). */
type FieldsDiff = (o: object, n: object, net: string | undefined, push: Push) => void;

/** How two values of a `value` field are the same, given that they differ as values (`a`, `b`: expressions). */
const SAME: Record<Sameness, (a: string, b: string) => string> = {
  exact: () => 'false',
  decimal: (a, b) => `sameDecimal(${a}, ${b})`,
  'empty-is-null': (a, b) => `(${a} ?? '') === (${b} ?? '')`,
  'null-is-false': (a, b) => `(${a} ?? false) === (${b} ?? false)`,
};

/**
 * The diff of a field list, compiled from it (see lib/compile.ts): each field that raises a
 * change is compared, in the order of the first change it raises in CHANGE_KINDS.
 */
function diffOf(name: string, list: Record<string, FieldSpec>): FieldsDiff {
  const kinds = (c: FieldChange): ChangeKind[] => (c.kind === 'flip' ? [c.on, c.off] : c.kind === 'message' ? [c.set, c.changed, c.cleared] : c.kind === 'value' ? [c.change] : []);
  const rank = (c: FieldChange): number => Math.min(...kinds(c).map((k) => CHANGE_KINDS.indexOf(k)));
  const messages: Record<string, FieldChange> = {};
  const lines = fieldsOf(list)
    .filter(([, f]) => kinds(f.change).length > 0)
    .sort(([, a], [, b]) => rank(a.change) - rank(b.change))
    .map(([key, { change }]) => {
      const [b, a] = [prop('o', key), prop('n', key)];
      const differ = `if (${b} !== ${a}`;
      if (change.kind === 'flip') return `${differ}) push(${a} ? ${literal(change.on)} : ${literal(change.off)}, ${b}, ${a}, net);`;
      if (change.kind === 'message') {
        messages[key] = change;
        return `${differ}) diffMessage(${prop('messages', key)}, ${b}, ${a}, net, push);`;
      }
      if (change.kind === 'value') return `${differ} && !(${SAME[change.same](b, a)})) push(${literal(change.change)}, ${b}, ${a}, net);`;
      return '';
    });
  return compile<FieldsDiff>(`diff${name}`, ['o', 'n', 'net', 'push'], lines.join('\n'), { sameDecimal, diffMessage, messages });
}

/** The coin's own flips. */
const diffCoinFields = diffOf('Coin', COIN_FIELDS);
/** What each field of a network raises when it changes. */
const diffNetwork = diffOf('Network', NETWORK_FIELDS);

function diffCoin(exchange: string, before: CoinRecord, after: CoinRecord, at: number, out: Change[], unknown?: ReadonlySet<string>): void {
  const coin = after.coin;
  const push = (kind: ChangeKind, b: ChangeValue, a: ChangeValue, network?: string): void => {
    const change: Change = { kind, exchange, coin, before: b, after: a, at };
    if (network !== undefined) change.network = network;
    out.push(change);
  };
  diffCoinFields(before, after, undefined, push);

  const old = new Map(before.networkList.map((n) => [n.network, n]));
  const now = new Map(after.networkList.map((n) => [n.network, n]));
  for (const [name, n] of now) {
    const o = old.get(name);
    if (o === undefined) {
      if (unknown?.has(unknownKey(coin, name)) !== true) push('network_added', null, n.name ?? name, name);
    }
    else if (o !== n) diffNetwork(o, n, n.network, push);
  }
  for (const [name, o] of old) if (!now.has(name)) push('network_removed', o.name ?? name, null, name);

  const oldDefault = defaultOf(before);
  const newDefault = defaultOf(after);
  if (oldDefault !== newDefault && oldDefault !== null && newDefault !== null) push('default_network_changed', oldDefault, newDefault, newDefault);
}

function defaultOf(c: CoinRecord): string | null {
  return c.networkList.find((n) => n.isDefault)?.network ?? null;
}

/** A message is "no message" when null or blank; set, changed and cleared are events of their own. */
function diffMessage(change: Extract<FieldChange, { kind: 'message' }>, before: string | null, after: string | null, net: string | undefined, push: Push): void {
  const b = blankToNull(before);
  const a = blankToNull(after);
  if (b === a) return;
  if (b === null) push(change.set, null, a, net);
  else if (a === null) push(change.cleared, b, null, net);
  else push(change.changed, b, a, net);
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
