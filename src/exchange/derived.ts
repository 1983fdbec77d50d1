/**
 * What dialects.md section 1 lets a dialect derive besides decimals (those are derived-decimals.ts):
 * the coin flags from its networks (rule 4), also when a network's flag is unknown (carried
 * forward per network, see snapshot/fields.ts), spec-style symbols (rule 6), the 24 h window
 * (rule 7).
 */
import { sameNetwork } from '../snapshot/merge';
import type { CoinRecord, NetworkRecord, RecordIssue } from '../snapshot/model';
import { KeyedRecords } from './duplicates';
import { FieldError, isObject, reason, shapeOf, type Json } from './read';

/** A spec-style symbol: separators removed, upper-cased (`BTC-USDT` → `BTCUSDT`). */
export function specSymbol(symbol: string): string {
  return symbol.replace(/[-_/]/g, '').toUpperCase();
}

/** A coin flag from its networks: true iff it has one and every one's flag is (rule 4). */
export function everyNetwork<N extends { depositEnable: boolean; withdrawEnable: boolean }>(networks: readonly N[], flag: 'depositEnable' | 'withdrawEnable'): boolean {
  return networks.length > 0 && networks.every((n) => n[flag]);
}

/**
 * A coin's networks as far as they can be read (dialects.md: "unknown is never closed"). A
 * network that cannot be read (a status flag not sent, or not one the exchange documents) is
 * an issue of its own, keyed by `key`: the merge keeps its previous record (merge.ts
 * keepNetworks) while the coin's other networks update; a network never read before is held
 * back until it reads well. Its key is in `unknown`. A network that cannot even be keyed fails
 * the coin (FieldError): it might be any of the coin's networks.
 */
export function readNetworks(coin: string, items: readonly unknown[], key: (item: unknown) => string | undefined, read: (item: Json) => NetworkRecord, issues: RecordIssue[]): { networks: NetworkRecord[]; unknown: string[] } {
  const networks = new KeyedRecords<NetworkRecord>((n) => n.network, sameNetwork);
  const unknown: string[] = [];
  const own: RecordIssue[] = [];
  items.forEach((item, index) => {
    if (!isObject(item)) throw new FieldError(`network ${index} is ${shapeOf(item)}, not an object`);
    let network: NetworkRecord;
    try {
      network = read(item);
    } catch (err) {
      const k = key(item);
      if (k === undefined) throw new FieldError(`network ${index}: ${reason(err)}`);
      networks.setAside(k);
      unknown.push(k);
      own.push({ entity: 'network', coin, network: k, index, reason: reason(err) });
      return;
    }
    if (networks.add(network) === 'conflict') {
      unknown.push(network.network);
      own.push({ entity: 'network', coin, network: network.network, index, reason: 'network appears twice with different values' });
    }
  });
  issues.push(...own);
  return { networks: networks.taken(), unknown };
}

/**
 * A coin flag derived from its networks (rule 4) when some are unknown: over the networks the
 * snapshot will hold, the ones read now and, for each unknown one, its previous record (its
 * last known value, which the merge keeps). Undefined when that does not decide it: a coin
 * seen for the first time with a network unknown and none closed, or with nothing known at
 * all; the coin is then set aside (its previous record kept, or held back until known).
 */
export function carriedFlag(networks: readonly NetworkRecord[], unknown: readonly string[], before: CoinRecord | undefined, flag: 'depositEnable' | 'withdrawEnable'): boolean | undefined {
  if (networks.some((n) => !n[flag])) return false;
  if (unknown.length === 0) return networks.length > 0;
  if (before === undefined) return undefined;
  const kept = before.networkList.filter((n) => unknown.includes(n.network) && !networks.some((m) => m.network === n.network));
  if (kept.some((n) => !n[flag])) return false;
  return networks.length + kept.length > 0 ? true : undefined;
}

/** A coin whose flags are derived from its networks (every dialect but Binance), unknown networks carried as carriedFlag says. */
export function derivedCoinOf(coin: string, name: string | null, read: { networks: NetworkRecord[]; unknown: readonly string[] }, before: CoinRecord | undefined): CoinRecord {
  const depositAllEnable = carriedFlag(read.networks, read.unknown, before, 'depositEnable');
  const withdrawAllEnable = carriedFlag(read.networks, read.unknown, before, 'withdrawEnable');
  if (depositAllEnable === undefined || withdrawAllEnable === undefined) {
    throw new FieldError('the coin flags are unknown: a network was set aside and no other is closed');
  }
  return { coin, name, depositAllEnable, withdrawAllEnable, networkList: read.networks };
}

export const DAY_MS = 86_400_000;

/** The window of a rolling 24 h ticker known only by its snapshot time (rule 7). */
export function rollingWindow(closeTime: number | null): { openTime: number | null; closeTime: number | null } {
  return { openTime: closeTime === null ? null : closeTime - DAY_MS, closeTime };
}
