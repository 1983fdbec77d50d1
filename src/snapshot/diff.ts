import { CHANGE_KINDS, type Change, type ChangeKind, type ChangeValue } from './changes';
import { sameDecimal } from './decimal-value';
import { COIN_FIELDS, fieldsOf, NETWORK_FIELDS, type FieldChange, type FieldSpec, type Sameness } from './fields';
import { unknownKey, type CoinRecord, type Snapshot } from './model';

/**
 * Every change between two snapshots of one exchange, with the values before and after.
 * Pure. Coins and tickers are compared only once both snapshots have them: the first
 * snapshot of an exchange is the baseline and yields no changes. One upstream change is one
 * Change: a listed coin is one `coin_listed`, not also a `network_added` per network.
 */
export function diff(prev: Snapshot, next: Snapshot): Change[] {
  const changes: Change[] = [];
  if (prev.coinsAt !== null && next.coinsAt !== null && prev.coins !== next.coins) diffCoins(prev, next, next.coinsAt, changes);
  if (prev.tickersAt !== null && next.tickersAt !== null && prev.tickers !== next.tickers) diffTickers(prev, next, next.tickersAt, changes);
  return changes;
}

function diffCoins(prev: Snapshot, next: Snapshot, at: number, out: Change[]): void {
  const exchange = next.exchange;
  for (const [coin, after] of next.coins) {
    const before = prev.coins.get(coin);
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

/** How two values of a `value` field are the same, given that they differ as values. */
const SAME: Record<Sameness, (a: ChangeValue, b: ChangeValue) => boolean> = {
  exact: () => false,
  decimal: (a, b) => sameDecimal(a as string | null, b as string | null),
  'empty-is-null': (a, b) => (a ?? '') === (b ?? ''),
  'null-is-false': (a, b) => (a ?? false) === (b ?? false),
};

/** A field that raises changes, with what it raises. */
type Changing = readonly [key: string, change: FieldChange];

/** The fields of a list that raise changes, in the order of the first change each raises in CHANGE_KINDS (the order changes are listed in). */
function changingFields(list: Record<string, FieldSpec>): Changing[] {
  const kinds = (c: FieldChange): ChangeKind[] => (c.kind === 'flip' ? [c.on, c.off] : c.kind === 'message' ? [c.set, c.changed, c.cleared] : c.kind === 'value' ? [c.change] : []);
  const rank = (c: FieldChange): number => Math.min(...kinds(c).map((k) => CHANGE_KINDS.indexOf(k)));
  return fieldsOf(list)
    .filter(([, f]) => kinds(f.change).length > 0)
    .sort(([, a], [, b]) => rank(a.change) - rank(b.change))
    .map(([key, f]) => [key, f.change] as const);
}

/** The coin's own flips. */
const COIN_CHANGES = changingFields(COIN_FIELDS);
/** What each field of a network raises when it changes. */
const NETWORK_CHANGES = changingFields(NETWORK_FIELDS);

/** The changes between two records of one key, field by field, as the field list says (`net`: the network, for a network). */
function diffFields(fields: readonly Changing[], o: object, n: object, net: string | undefined, push: Push): void {
  for (const [key, change] of fields) {
    const b = (o as Record<string, ChangeValue>)[key] as ChangeValue;
    const a = (n as Record<string, ChangeValue>)[key] as ChangeValue;
    if (b === a) continue;
    if (change.kind === 'flip') push(a ? change.on : change.off, b, a, net);
    else if (change.kind === 'message') diffMessage(change, b as string | null, a as string | null, net, push);
    else if (change.kind === 'value' && !SAME[change.same](b, a)) push(change.change, b, a, net);
  }
}

function diffCoin(exchange: string, before: CoinRecord, after: CoinRecord, at: number, out: Change[], unknown?: ReadonlySet<string>): void {
  const coin = after.coin;
  const push = (kind: ChangeKind, b: ChangeValue, a: ChangeValue, network?: string): void => {
    const change: Change = { kind, exchange, coin, before: b, after: a, at };
    if (network !== undefined) change.network = network;
    out.push(change);
  };
  diffFields(COIN_CHANGES, before, after, undefined, push);

  const old = new Map(before.networkList.map((n) => [n.network, n]));
  const now = new Map(after.networkList.map((n) => [n.network, n]));
  for (const [name, n] of now) {
    const o = old.get(name);
    if (o === undefined) {
      if (unknown?.has(unknownKey(coin, name)) !== true) push('network_added', null, n.name ?? name, name);
    }
    else if (o !== n) diffFields(NETWORK_CHANGES, o, n, n.network, push);
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
