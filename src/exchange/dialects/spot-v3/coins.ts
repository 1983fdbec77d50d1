/**
 * The coin list (`GET /api/v3/coins`, spec sections 2.1, 2.2 and 4.1) into coin records, one
 * record at a time (exchange/decode-list.ts): a malformed coin or network is set aside as a
 * RecordIssue and the rest of the answer is still used; unknown fields are ignored.
 */
import { COIN_FIELDS, NETWORK_FIELDS } from '../../../snapshot/fields';
import { sameCoin, sameNetwork } from '../../../snapshot/merge';
import type { CoinRecord, NetworkRecord, RecordIssue } from '../../../snapshot/model';
import { decodeList, type ListReader } from '../../decode-list';
import { KeyedRecords } from '../../duplicates';
import { shapeOf, FieldError, isObject, keyOf, reason, requiredStr, type Json, type Parsed } from '../../read';
import { listOf } from './answer';
import { readerOf, sameAsRawOf } from './records';

const readNetwork = readerOf<NetworkRecord>(NETWORK_FIELDS);
const readCoinFields = readerOf<CoinRecord>(COIN_FIELDS);
const sameNetworkAsRaw = sameAsRawOf<NetworkRecord>(NETWORK_FIELDS);
const sameCoinAsRaw = sameAsRawOf<CoinRecord>(COIN_FIELDS, sameNetworksAsRaw);

/** A coin's raw networkList against the networks it holds, network by network. */
function sameNetworksAsRaw(nets: unknown, held: unknown): boolean {
  const networks = held as readonly NetworkRecord[];
  if (!Array.isArray(nets) || nets.length !== networks.length) return false;
  for (let j = 0; j < nets.length; j++) {
    const n: unknown = nets[j];
    if (!isObject(n) || !sameNetworkAsRaw(n, networks[j] as NetworkRecord)) return false;
  }
  return true;
}

function readCoin(o: Json, issues: RecordIssue[]): CoinRecord {
  const coin = requiredStr(o, 'coin');
  const nets = o.networkList;
  if (!Array.isArray(nets)) throw new FieldError('networkList is not a list');
  return readCoinFields(o, coin, readNetworks(nets, coin, issues));
}

/** The networks of one coin, duplicates resolved (see exchange/duplicates.ts). */
function readNetworks(nets: readonly unknown[], coin: string, issues: RecordIssue[]): NetworkRecord[] {
  const networks = new KeyedRecords<NetworkRecord>((n) => n.network, sameNetwork);
  for (let j = 0; j < nets.length; j++) {
    const n = nets[j];
    try {
      if (!isObject(n)) throw new FieldError(`network is ${shapeOf(n)}, not an object`);
      const record = readNetwork(n, coin);
      if (networks.add(record) === 'conflict') {
        issues.push({ entity: 'network', coin, network: record.network, index: j, reason: 'network appears twice in networkList with different values' });
      }
    } catch (err) {
      const issue: RecordIssue = { entity: 'network', coin, index: j, reason: reason(err) };
      const network = keyOf(n, 'network');
      if (network !== undefined) {
        issue.network = network;
        networks.setAside(network);
      }
      issues.push(issue);
    }
  }
  return networks.taken();
}

/**
 * How a raw coin is read. A raw coin whose every field is exactly what its previous record
 * holds gives back that previous object without reading it: most of a coin list is unchanged
 * when a few coins change, and reading it all cost 19 ms against 3 ms at 4,000 coins
 * (BENCHMARKS.md, issue 21).
 */
const COINS: ListReader<CoinRecord> = {
  entity: 'coin',
  key: (item) => keyOf(item, 'coin'),
  read: (item, _key, before, parts) => (before !== undefined && sameCoinAsRaw(item, before) ? before : readCoin(item, parts)),
  same: sameCoin,
  twice: 'coin appears twice in the list with different values',
};

/** The coin list; `previous` (the coins of the last snapshot) lets an unchanged coin come back as its previous object. */
export function decodeCoins(body: unknown, previous?: ReadonlyMap<string, CoinRecord>): Parsed<CoinRecord> {
  return decodeList(COINS, listOf(body, 'coins'), previous);
}
