/**
 * The coin list (`GET /api/v3/coins`, spec sections 2.1, 2.2 and 4.1) into coin records, one
 * record at a time: a malformed coin or network is set aside as a RecordIssue and the rest of
 * the answer is still used; unknown fields are ignored.
 */
import { COIN_FIELDS, NETWORK_FIELDS } from '../../../snapshot/fields';
import { sameCoin, sameNetwork } from '../../../snapshot/merge';
import type { CoinRecord, NetworkRecord, RecordIssue } from '../../../snapshot/model';
import { inTurns } from '../../../lib/timer';
import { KeyedRecords } from '../../duplicates';
import { shapeOf, FieldError, isObject, keyOf, reason, requiredStr, type Json, type Parsed } from '../../read';
import { listOf } from './answer';
import { codecOf } from './records';

const NETWORK = codecOf<NetworkRecord>('Network', NETWORK_FIELDS);
const COIN = codecOf<CoinRecord>('Coin', COIN_FIELDS, sameNetworksAsRaw);

/** A coin's raw networkList against the networks it holds, network by network. */
function sameNetworksAsRaw(nets: unknown, held: unknown): boolean {
  const networks = held as readonly NetworkRecord[];
  if (!Array.isArray(nets) || nets.length !== networks.length) return false;
  for (let j = 0; j < nets.length; j++) {
    const n: unknown = nets[j];
    if (!isObject(n) || !NETWORK.same(n, networks[j] as NetworkRecord)) return false;
  }
  return true;
}

/*
 * Reuse of previous records. Given the coins of the previous answer, a raw coin whose every
 * field is exactly what its previous record holds gives back that previous object, without
 * building a new one: most of a coin list is unchanged from poll to poll, and the merge, the
 * diff, the metrics and the state store all skip an unchanged record by identity.
 */
const sameCoinAsRaw = COIN.same;

function readCoin(o: Json, coin: string, issues: RecordIssue[]): CoinRecord {
  const nets = o.networkList;
  if (!Array.isArray(nets)) throw new FieldError('networkList is not a list');
  return COIN.read(o, coin, readNetworks(nets, coin, issues));
}

/** The networks of one coin, duplicates resolved (see exchange/duplicates.ts). */
function readNetworks(nets: readonly unknown[], coin: string, issues: RecordIssue[]): NetworkRecord[] {
  const networks = new KeyedRecords<NetworkRecord>((n) => n.network, sameNetwork);
  for (let j = 0; j < nets.length; j++) {
    const n = nets[j];
    try {
      if (!isObject(n)) throw new FieldError(`network is ${shapeOf(n)}, not an object`);
      const record = NETWORK.read(n, coin);
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

/** The coin list; `previous` (the coins of the last snapshot) lets an unchanged coin come back as its previous object. */
export function decodeCoins(body: unknown, previous?: ReadonlyMap<string, CoinRecord>): Parsed<CoinRecord> {
  const steps = coinsInParts(body, previous);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** Coins read afresh per turn of the event loop by decodeCoinsInTurns. */
const COINS_PER_TURN = 500;

/**
 * decodeCoins, COINS_PER_TURN coins read afresh per turn of the event loop: when an exchange
 * closes every network, no coin is its previous object, and 4,000 coins read at once held the
 * loop for 80-100 ms. A coin that comes back as its previous object costs little and is not
 * counted, so an ordinary (unchanged) answer is read in one turn.
 */
export function decodeCoinsInTurns(body: unknown, previous?: ReadonlyMap<string, CoinRecord>): Promise<Parsed<CoinRecord>> {
  return inTurns(coinsInParts(body, previous));
}

/** decodeCoins, pausing (a yield) after every COINS_PER_TURN coins read afresh. */
function* coinsInParts(body: unknown, previous?: ReadonlyMap<string, CoinRecord>): Generator<void, Parsed<CoinRecord>, void> {
  const list = listOf(body, 'coins');
  const coins = new KeyedRecords<CoinRecord>((c) => c.coin, sameCoin);
  const issues: RecordIssue[] = [];
  let fresh = 0;
  for (let i = 0; i < list.length; i++) {
    if (fresh >= COINS_PER_TURN) {
      fresh = 0;
      yield;
    }
    const item = list[i];
    const own: RecordIssue[] = [];
    try {
      if (!isObject(item)) throw new FieldError(`coin is ${shapeOf(item)}, not an object`);
      const coin = requiredStr(item, 'coin');
      const old = previous?.get(coin);
      let record: CoinRecord;
      if (old !== undefined && sameCoinAsRaw(item, old)) record = old;
      else {
        fresh += 1;
        record = readCoin(item, coin, own);
      }
      const copy = coins.add(record, own);
      if (copy === 'first') issues.push(...own);
      else if (copy === 'conflict') issues.push({ entity: 'coin', coin, index: i, reason: 'coin appears twice in the list with different values' });
    } catch (err) {
      const issue: RecordIssue = { entity: 'coin', index: i, reason: reason(err) };
      const coinKey = keyOf(item, 'coin');
      if (coinKey !== undefined) {
        issue.coin = coinKey;
        coins.setAside(coinKey);
      }
      issues.push(issue);
    }
  }
  return { records: coins.taken(), issues };
}
