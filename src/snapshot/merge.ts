import { COIN_FIELDS, keysOf, NETWORK_FIELDS, TICKER_FIELDS } from './fields';
import { unknownKey, type CoinRecord, type NetworkRecord, type RecordIssue, type Snapshot, type TickerRecord } from './model';

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
  const coins = new Map<string, CoinRecord>();
  // An unchanged coin keeps its previous object: everything downstream (diff, metrics,
  // state) can then skip it by identity, which is most of an exchange on most polls.
  let unchanged = answer.records.length === prev.coins.size;
  for (const c of answer.records) {
    const old = prev.coins.get(c.coin);
    if (old !== undefined && sameCoin(old, c)) coins.set(c.coin, old);
    else {
      coins.set(c.coin, c);
      unchanged = false;
    }
  }
  const keepAllCoins = answer.issues.some((i) => i.entity === 'coin' && i.coin === undefined);
  for (const issue of answer.issues) {
    if (issue.entity === 'coin' && issue.coin !== undefined) keepCoin(prev, coins, issue.coin);
    if (issue.entity === 'network' && issue.coin !== undefined) keepNetworks(prev, coins, issue.coin, issue.network);
  }
  if (keepAllCoins) for (const c of prev.coins.keys()) keepCoin(prev, coins, c);
  if (unchanged && answer.issues.length === 0 && coins.size === prev.coins.size && prev.coinsAt !== null && prev.unknownCoins === undefined) return { ...prev, coinsAt: at };
  const unknown = unknownCoins(prev, answer.issues, coins);
  // Malformed records kept at their previous values, and nothing else changed: still the very
  // part it was, as for an answer without them (the path, the engine, the exposition and the
  // writer take a new map as a change; an answer read afresh must give what a remembered one does).
  if (prev.coinsAt !== null && sameRecords(coins, prev.coins) && sameKeys(unknown, prev.unknownCoins)) return { ...prev, coinsAt: at };
  const next: Snapshot = { ...prev, coins, coinsAt: at };
  if (unknown === undefined) delete next.unknownCoins;
  else next.unknownCoins = unknown;
  return next;
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

/** Whether two parts hold the very same record objects under the same keys (in any order). */
function sameRecords<T>(a: ReadonlyMap<string, T>, b: ReadonlyMap<string, T>): boolean {
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

function keepCoin(prev: Snapshot, coins: Map<string, CoinRecord>, coin: string): void {
  const old = prev.coins.get(coin);
  if (old !== undefined && !coins.has(coin)) coins.set(coin, old);
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
  const tickers = new Map<string, TickerRecord>();
  // As applyCoins: nothing changed keeps the previous map, which downstream skips by identity.
  let unchanged = answer.records.length === prev.tickers.size;
  for (const t of answer.records) {
    const old = prev.tickers.get(t.symbol);
    if (old !== undefined && sameTicker(old, t)) tickers.set(t.symbol, old);
    else {
      tickers.set(t.symbol, t);
      unchanged = false;
    }
  }
  const keepAll = answer.issues.some((i) => i.symbol === undefined);
  for (const issue of answer.issues) {
    if (issue.symbol !== undefined) keepTicker(prev, tickers, issue.symbol);
  }
  if (keepAll) for (const s of prev.tickers.keys()) keepTicker(prev, tickers, s);
  if (unchanged && answer.issues.length === 0 && tickers.size === prev.tickers.size && prev.tickersAt !== null && prev.unknownSymbols === undefined) return { ...prev, tickersAt: at };
  // As unknownCoins: symbols set aside without a previous value, on the baseline or since.
  let unknown: Set<string> | undefined;
  for (const issue of answer.issues) {
    const s = issue.symbol;
    if (s !== undefined && !tickers.has(s) && (prev.tickersAt === null || prev.unknownSymbols?.has(s) === true)) (unknown ??= new Set()).add(s);
  }
  // As applyCoins: only malformed records kept, the very part it was.
  if (prev.tickersAt !== null && sameRecords(tickers, prev.tickers) && sameKeys(unknown, prev.unknownSymbols)) return { ...prev, tickersAt: at };
  const next: Snapshot = { ...prev, tickers, tickersAt: at };
  if (unknown === undefined) delete next.unknownSymbols;
  else next.unknownSymbols = unknown;
  return next;
}

/** Field-by-field equality of two ticker records (text for text, as sameCoin). */
export function sameTicker(a: TickerRecord, b: TickerRecord): boolean {
  if (a === b) return true;
  for (const k of TICKER_KEYS) if (a[k] !== b[k]) return false;
  return true;
}

function keepTicker(prev: Snapshot, tickers: Map<string, TickerRecord>, symbol: string): void {
  const old = prev.tickers.get(symbol);
  if (old !== undefined && !tickers.has(symbol)) tickers.set(symbol, old);
}
