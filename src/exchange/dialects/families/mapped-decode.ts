/**
 * Decoding for the dialects whose field names are not the model's (dialects.md section 2):
 * each says how one raw coin, network or ticker maps onto the model, and these loops do the
 * rest the same way for all of them: a malformed record is set aside as an issue (its
 * previous value is kept by the merge: unknown is never taken for closed), a key sent twice
 * is resolved by KeyedRecords, a coin's flags are derived from its networks (rule 4), and a
 * record equal to its previous one comes back as the previous object (decode-list.ts).
 */
import { sameCoin, sameNetwork, sameTicker } from '../../../snapshot/merge';
import type { CoinRecord, NetworkRecord, RecordIssue, TickerRecord } from '../../../snapshot/model';
import { decodeList, type ListReader } from '../../decode-list';
import { KeyedRecords } from '../../duplicates';
import { FieldError, int, isObject, keyOf, reason, shapeOf, type Json, type Parsed } from '../../read';

/** How a dialect's raw coin maps onto the model. */
export interface CoinSource {
  /** The model's coin symbol of a raw coin, undefined when it has none usable. */
  coin(o: unknown): string | undefined;
  name(o: Json): string | null;
  /** Its raw networks; throws FieldError when they are not a list. */
  networks(o: Json): readonly unknown[];
  /** The key of a raw network, undefined when it has none usable (for the issue of one that failed). */
  networkKey(n: unknown): string | undefined;
  /** One network; throws FieldError for a malformed one (a flag not sent included). */
  network(n: Json, coin: string, o: Json): NetworkRecord;
  /** A coin flag as the exchange sends it (Binance's), null when left out: then it is derived from the networks. */
  sentFlag?(o: Json, flag: 'depositAllEnable' | 'withdrawAllEnable'): boolean | null;
}

/** How a dialect's raw ticker maps onto the model. */
export interface TickerSource {
  /** The model's symbol of a raw ticker (`BTC-USDT` → `BTCUSDT`), undefined when it has none usable. */
  symbol(o: unknown): string | undefined;
  /** One ticker, `time` the answer's own time when it has one; throws FieldError for a malformed one. */
  ticker(o: Json, symbol: string, time: number | null): TickerRecord;
}

/** A usable key of a raw record (read.ts keyOf), in the model's style. */
export function keyIn(o: unknown, key: string, style: (text: string) => string = (t) => t): string | undefined {
  const v = keyOf(o, key);
  return v === undefined ? undefined : style(v);
}

/**
 * A list field of a raw record; not a list (absent, null): FieldError, so the record is set
 * aside rather than read as having no networks (which would close its coin flags).
 */
export function listIn(o: Json, key: string): readonly unknown[] {
  const v = o[key];
  if (!Array.isArray(v)) throw new FieldError(`${key} is not a list`);
  return v;
}

/**
 * A status flag as the exchange encodes it: `open` says what a sent value means (true, false,
 * or undefined for a value it does not document). Not sent, or not documented: FieldError,
 * so the network is set aside and keeps its previous state; a missing flag is never read as
 * closed (nor as open).
 */
export function statusFlag(o: Json, key: string, open: (v: unknown) => boolean | undefined): boolean {
  const v = o[key];
  if (v === undefined || v === null) throw new FieldError(`${key} is missing`);
  const flag = open(v);
  if (flag === undefined) throw new FieldError(`${key} is not a status this dialect knows`);
  return flag;
}

/** A flag that may be left out (null: the exchange does not say), read as statusFlag when sent. */
export function optionalFlag(o: Json, key: string, open: (v: unknown) => boolean | undefined): boolean | null {
  return o[key] == null ? null : statusFlag(o, key, open);
}

/** A boolean sent as a boolean or as the text `true`/`false`. */
export function booleanValue(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
}

/** An integer field (rule 1: `15` or `"15"`); `""` is "no value", null (rule 2). */
export function integer(o: Json, key: string): number | null {
  return o[key] === '' ? null : int(o, key);
}

/** An answer's time (ms), sent as a number or as a string of digits; null when absent or not one. */
export function timeOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^\d{1,15}$/.test(v)) return Number(v);
  return null;
}

/**
 * A coin's networks as read: the networks, the keys of those set aside (`unknown`: the merge
 * keeps their previous records, merge.ts keepNetworks), and whether one set aside had no key.
 */
interface ReadNetworks {
  networks: NetworkRecord[];
  unknown: string[];
  unkeyed: boolean;
}

/**
 * A coin's flag `of` (rule 4): true iff it has a network and every network's is true. What is
 * not known now decides nothing: a network set aside counts at its last known value, and where
 * that leaves the flag undecided the previous record's flag stands (undefined when there is
 * none: the coin is set aside, held back until known).
 */
function coinFlag({ networks, unknown, unkeyed }: ReadNetworks, of: 'depositEnable' | 'withdrawEnable', before: CoinRecord | undefined): boolean | undefined {
  if (networks.some((n) => !n[of])) return false;
  if (unknown.length === 0 && !unkeyed) return networks.length > 0;
  // Each network set aside counts at its last known value (the merge keeps its previous record).
  const kept = before?.networkList.filter((n) => unknown.includes(n.network) && !networks.some((m) => m.network === n.network)) ?? [];
  if (kept.some((n) => !n[of])) return false;
  // Undecided: one set aside without a key may be any of the coin's networks (the closed one), or none is known.
  if (unkeyed || networks.length + kept.length === 0) return before?.[of === 'depositEnable' ? 'depositAllEnable' : 'withdrawAllEnable'];
  // Seen for the first time with a network unknown and none closed.
  return before === undefined ? undefined : true;
}

function readNetworks(source: CoinSource, o: Json, coin: string, issues: RecordIssue[]): ReadNetworks {
  const raw = source.networks(o);
  const networks = new KeyedRecords<NetworkRecord>((n) => n.network, sameNetwork);
  const unknown: string[] = [];
  let unkeyed = false;
  for (let j = 0; j < raw.length; j++) {
    const n = raw[j];
    try {
      if (!isObject(n)) throw new FieldError(`network is ${shapeOf(n)}, not an object`);
      const record = source.network(n, coin, o);
      if (networks.add(record) === 'conflict') {
        unknown.push(record.network);
        issues.push({ entity: 'network', coin, network: record.network, index: j, reason: 'network appears twice with different values' });
      }
    } catch (err) {
      const issue: RecordIssue = { entity: 'network', coin, index: j, reason: reason(err) };
      const network = source.networkKey(n);
      if (network === undefined) {
        unkeyed = true;
      } else {
        issue.network = network;
        networks.setAside(network);
        unknown.push(network);
      }
      issues.push(issue);
    }
  }
  return { networks: networks.taken(), unknown, unkeyed };
}

function readCoin(source: CoinSource, o: Json, coin: string, before: CoinRecord | undefined, issues: RecordIssue[]): CoinRecord {
  const read = readNetworks(source, o, coin, issues);
  const depositAllEnable = source.sentFlag?.(o, 'depositAllEnable') ?? coinFlag(read, 'depositEnable', before);
  const withdrawAllEnable = source.sentFlag?.(o, 'withdrawAllEnable') ?? coinFlag(read, 'withdrawEnable', before);
  if (depositAllEnable === undefined || withdrawAllEnable === undefined) {
    throw new FieldError('the coin flags are unknown: a network was set aside and no other is closed');
  }
  return { coin, name: source.name(o), depositAllEnable, withdrawAllEnable, networkList: read.networks };
}

/** The coins of a list of raw coins, read by `source`; `previous` gives back unchanged coins as their previous objects. */
export function decodeCoinsWith(source: CoinSource, list: readonly unknown[], previous?: ReadonlyMap<string, CoinRecord>): Parsed<CoinRecord> {
  const reader: ListReader<CoinRecord> = {
    entity: 'coin',
    key: (item) => source.coin(item),
    read: (item, coin, before, parts) => {
      if (coin === undefined) throw new FieldError('the coin has no symbol');
      return readCoin(source, item, coin, before, parts);
    },
    same: sameCoin,
    twice: 'coin appears twice in the list with different values',
  };
  return decodeList(reader, list, previous);
}

/** The tickers of a list of raw tickers, read by `source` (`time`: the answer's own time, when it has one), as decodeCoinsWith. */
export function decodeTickersWith(source: TickerSource, list: readonly unknown[], time: number | null, previous?: ReadonlyMap<string, TickerRecord>): Parsed<TickerRecord> {
  const reader: ListReader<TickerRecord> = {
    entity: 'ticker',
    key: (item) => source.symbol(item),
    read: (item, symbol) => {
      if (symbol === undefined) throw new FieldError('the ticker has no symbol');
      return source.ticker(item, symbol, time);
    },
    same: sameTicker,
    twice: 'symbol appears twice in the list with different values',
  };
  return decodeList(reader, list, previous);
}
