import { COIN_FIELDS, keysOf, NETWORK_FIELDS, TICKER_FIELDS } from './fields';
import { unknownKey, type CoinRecord, type Endpoint, type NetworkRecord, type RecordIssue, type Snapshot, type TickerRecord } from './model';

/** What the client read from one answer: the good records and the ones it set aside. */
export interface Answer<T> {
  records: readonly T[];
  issues: readonly RecordIssue[];
}

/**
 * The next snapshot from a coin-list answer. A record that failed validation keeps its
 * previous value: a malformed record is never read as "delisted" or "disabled". When a
 * broken record could not even be keyed, everything absent from the answer is kept, since
 * any of it might be that record.
 */
export function applyCoins(prev: Snapshot, answer: Answer<CoinRecord>, at: number): Snapshot {
  const { records: coins, unchanged } = byKey(answer.records, prev.coins, (c) => c.coin, sameCoin);
  const keepAllCoins = answer.issues.some((i) => i.entity === 'coin' && i.coin === undefined);
  for (const issue of answer.issues) {
    if (issue.entity === 'coin' && issue.coin !== undefined) keep(prev.coins, coins, issue.coin);
    if (issue.entity === 'network' && issue.coin !== undefined) keepNetworks(prev, coins, issue.coin, issue.network);
  }
  if (keepAllCoins) for (const c of prev.coins.keys()) keep(prev.coins, coins, c);
  return withPart(prev, 'coins', coins, unknownCoins(prev, answer.issues, coins), at, unchanged && answer.issues.length === 0);
}

/**
 * Coins and networks set aside without a previous value: on the first answer (the baseline),
 * or still set aside since then. Set aside later, a key without a previous value is new, and
 * reads as listed when it first reads well, as it should.
 */
function unknownCoins(prev: Snapshot, issues: readonly RecordIssue[], coins: ReadonlyMap<string, CoinRecord>): ReadonlySet<string> | undefined {
  let out: Set<string> | undefined;
  const baseline = prev.coinsAt === null;
  for (const issue of issues) {
    if (issue.coin === undefined) continue;
    const coin = coins.get(issue.coin);
    let key: string | undefined;
    if (coin === undefined) key = unknownKey(issue.coin);
    else if (issue.entity === 'network' && issue.network !== undefined && !coin.networkList.some((n) => n.network === issue.network)) key = unknownKey(issue.coin, issue.network);
    if (key !== undefined && (baseline || prev.unknownCoins?.has(key) === true)) (out ??= new Set()).add(key);
  }
  return out;
}

/** Every field of a network record (fields.ts): a field left out here would be a change never seen. */
const NETWORK_KEYS = keysOf(NETWORK_FIELDS);
/** Every field of a coin record but its networks, which are compared one by one. */
const COIN_KEYS = keysOf(COIN_FIELDS).filter((k) => COIN_FIELDS[k].type !== 'networks');
const TICKER_KEYS = keysOf(TICKER_FIELDS);

/** Field-by-field equality of two network records (text for text, as sameCoin). */
export function sameNetwork(a: NetworkRecord, b: NetworkRecord): boolean {
  if (a === b) return true;
  for (const k of NETWORK_KEYS) if (a[k] !== b[k]) return false;
  return true;
}

/** Field-by-field equality of two coin records (text for text: this is about identity, not value). */
export function sameCoin(a: CoinRecord, b: CoinRecord): boolean {
  if (a === b) return true;
  for (const k of COIN_KEYS) if (a[k] !== b[k]) return false;
  if (a.networkList.length !== b.networkList.length) return false;
  for (let i = 0; i < a.networkList.length; i++) {
    if (!sameNetwork(a.networkList[i] as NetworkRecord, b.networkList[i] as NetworkRecord)) return false;
  }
  return true;
}

/**
 * The records of an answer by key, a record equal to its previous one as that previous object:
 * everything downstream (diff, metrics, state) can then skip it by identity, which is most of an
 * exchange on most polls. `unchanged`: every record is its previous one, and every previous one is there.
 */
function byKey<T>(records: readonly T[], before: ReadonlyMap<string, T>, key: (record: T) => string, same: (a: T, b: T) => boolean): { records: Map<string, T>; unchanged: boolean } {
  const out = new Map<string, T>();
  let unchanged = true;
  for (const r of records) {
    const k = key(r);
    const old = before.get(k);
    if (old !== undefined && same(old, r)) out.set(k, old);
    else {
      out.set(k, r);
      unchanged = false;
    }
  }
  return { records: out, unchanged: unchanged && out.size === before.size };
}

/**
 * `prev` with one part as read at `at`, and the keys set aside without a value (`unknown`).
 * Malformed records kept at their previous values, and nothing else changed: still the very part
 * it was, as for an answer without them (the path, the engine, the exposition and the writer take
 * a new map as a change; an answer read afresh must give what a remembered one does). `same`:
 * known to be so already (every record its previous one, none set aside).
 */
function withPart(prev: Snapshot, part: Endpoint, records: ReadonlyMap<string, object>, unknown: ReadonlySet<string> | undefined, at: number, same: boolean): Snapshot {
  const [atKey, unknownKey] = part === 'coins' ? (['coinsAt', 'unknownCoins'] as const) : (['tickersAt', 'unknownSymbols'] as const);
  if (prev[atKey] !== null && (same || sameRecords(records, prev[part])) && sameKeys(unknown, prev[unknownKey])) return { ...prev, [atKey]: at };
  const next: Snapshot = { ...prev, [part]: records, [atKey]: at };
  if (unknown === undefined) delete next[unknownKey];
  else next[unknownKey] = unknown;
  return next;
}

/** Whether two parts hold the very same record objects under the same keys (in any order). */
function sameRecords(a: ReadonlyMap<string, object>, b: ReadonlyMap<string, object>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

function sameKeys(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.size !== b.size) return false;
  for (const k of a) if (!b.has(k)) return false;
  return true;
}

/** Keeps the previous record of `key` when the answer has none. */
function keep<T>(before: ReadonlyMap<string, T>, records: Map<string, T>, key: string): void {
  const old = before.get(key);
  if (old !== undefined && !records.has(key)) records.set(key, old);
}

/** Keeps the previous value of one network (or, when unkeyed, of every network absent now). */
function keepNetworks(prev: Snapshot, coins: Map<string, CoinRecord>, coin: string, network: string | undefined): void {
  const old = prev.coins.get(coin);
  const now = coins.get(coin);
  if (old === undefined || now === undefined) return;
  const present = new Set(now.networkList.map((n) => n.network));
  // A kept network goes back where it was: the order of the list is part of the record (the
  // default network is the first one marked default), so keeping must not reorder it.
  let networkList: NetworkRecord[] | undefined;
  old.networkList.forEach((n, i) => {
    if (present.has(n.network) || (network !== undefined && n.network !== network)) return;
    networkList ??= [...now.networkList];
    networkList.splice(Math.min(i, networkList.length), 0, n);
  });
  if (networkList === undefined) return;
  // Kept back to what it was (the same answer again, read afresh): the previous object, as for any unchanged coin.
  const kept = { ...now, networkList };
  coins.set(coin, sameCoin(kept, old) ? old : kept);
}

/** The next snapshot from a ticker answer, malformed records kept as for applyCoins. */
export function applyTickers(prev: Snapshot, answer: Answer<TickerRecord>, at: number): Snapshot {
  const { records: tickers, unchanged } = byKey(answer.records, prev.tickers, (t) => t.symbol, sameTicker);
  const keepAll = answer.issues.some((i) => i.symbol === undefined);
  for (const issue of answer.issues) if (issue.symbol !== undefined) keep(prev.tickers, tickers, issue.symbol);
  if (keepAll) for (const s of prev.tickers.keys()) keep(prev.tickers, tickers, s);
  // As unknownCoins: symbols set aside without a previous value, on the baseline or since.
  let unknown: Set<string> | undefined;
  for (const issue of answer.issues) {
    const s = issue.symbol;
    if (s !== undefined && !tickers.has(s) && (prev.tickersAt === null || prev.unknownSymbols?.has(s) === true)) (unknown ??= new Set()).add(s);
  }
  return withPart(prev, 'tickers', tickers, unknown, at, unchanged && answer.issues.length === 0);
}

/** Field-by-field equality of two ticker records (text for text, as sameCoin). */
export function sameTicker(a: TickerRecord, b: TickerRecord): boolean {
  if (a === b) return true;
  for (const k of TICKER_KEYS) if (a[k] !== b[k]) return false;
  return true;
}
