/**
 * The loop every dialect's decode shares: read each item of a list into a record, a malformed
 * item an issue (its key set aside, never read as closed), a key sent twice resolved by
 * KeyedRecords (duplicates.ts). A dialect gives only how one item becomes a record.
 */
import { sameCoin, sameNetwork, sameTicker } from '../snapshot/merge';
import type { CoinRecord, NetworkRecord, RecordIssue, TickerRecord } from '../snapshot/model';
import { everyNetwork } from './derived';
import { KeyedRecords } from './duplicates';
import { FieldError, isObject, reason, shapeOf, type Json, type Parsed } from './read';

/** The coins of a list: `key` names the coin of a raw item (for the issue of one that fails). */
export function decodeCoinList(list: readonly unknown[], key: (item: unknown) => string | undefined, read: (item: Json) => CoinRecord): Parsed<CoinRecord> {
  const coins = new KeyedRecords<CoinRecord>((c) => c.coin, sameCoin);
  const issues: RecordIssue[] = [];
  list.forEach((item, index) => {
    try {
      if (!isObject(item)) throw new FieldError(`coin is ${shapeOf(item)}, not an object`);
      const record = read(item);
      if (coins.add(record) === 'conflict') issues.push({ entity: 'coin', coin: record.coin, index, reason: 'coin appears twice with different values' });
    } catch (err) {
      const coin = key(item);
      if (coin !== undefined) coins.setAside(coin);
      issues.push({ entity: 'coin', ...(coin !== undefined && { coin }), index, reason: reason(err) });
    }
  });
  return { records: coins.taken(), issues };
}

/**
 * A coin's networks, each read by `read`. A malformed network, or one sent twice with
 * different values, fails the whole coin (a FieldError): a network left out would read as
 * removed, and a guessed one as closed.
 */
export function networksOf(items: readonly unknown[], read: (item: Json) => NetworkRecord): NetworkRecord[] {
  const networks = new KeyedRecords<NetworkRecord>((n) => n.network, sameNetwork);
  items.forEach((item, index) => {
    if (!isObject(item)) throw new FieldError(`network ${index} is ${shapeOf(item)}, not an object`);
    let network: NetworkRecord;
    try {
      network = read(item);
    } catch (err) {
      throw new FieldError(`network ${index}: ${reason(err)}`);
    }
    if (networks.add(network) === 'conflict') throw new FieldError(`network ${network.network} appears twice with different values`);
  });
  return networks.taken();
}

/** A coin whose flags are derived from its networks (dialects.md rule 4: every dialect but Binance). */
export function derivedCoin(coin: string, name: string | null, networkList: NetworkRecord[]): CoinRecord {
  return { coin, name, depositAllEnable: everyNetwork(networkList, 'depositEnable'), withdrawAllEnable: everyNetwork(networkList, 'withdrawEnable'), networkList };
}

/** The tickers of a list. */
export function decodeTickerList(list: readonly unknown[], read: (item: Json) => TickerRecord): Parsed<TickerRecord> {
  const tickers = new KeyedRecords<TickerRecord>((t) => t.symbol, sameTicker);
  const issues: RecordIssue[] = [];
  list.forEach((item, index) => {
    try {
      if (!isObject(item)) throw new FieldError(`ticker is ${shapeOf(item)}, not an object`);
      const record = read(item);
      if (tickers.add(record) === 'conflict') issues.push({ entity: 'ticker', symbol: record.symbol, index, reason: 'symbol appears twice with different values' });
    } catch (err) {
      issues.push({ entity: 'ticker', index, reason: reason(err) });
    }
  });
  return { records: tickers.taken(), issues };
}

/** A flag sent as one of two documented values; anything else (absent included) fails the record: unknown is never closed. */
export function flagOf(o: Json, key: string, open: unknown, closed: unknown): boolean {
  const v = o[key];
  if (v === open) return true;
  if (v === closed) return false;
  throw new FieldError(v === undefined || v === null ? `${key} is missing` : `${key} is not ${JSON.stringify(open)} or ${JSON.stringify(closed)}`);
}
