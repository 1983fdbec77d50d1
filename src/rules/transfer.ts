/**
 * Transfer routes (DESIGN.md section 4, the `transfer` condition): can `coin` still move from
 * one exchange to another, and by which chain? A chain is a route when withdrawals of the coin
 * are open on it at `from` and deposits are open on it at `to`. Pure: the two snapshots and
 * the chain lookup in, the route out.
 *
 * Unknown is never closed: an exchange not yet polled, a coin or network set aside as unknown,
 * or a flag the exchange does not send (null) makes the answer `unknown`, which raises nothing.
 */
import { unknownKey, type NetworkRecord, type Snapshot } from '../snapshot/model';

/** true open, false closed, null unknown. */
export type Flag = boolean | null;

export interface TransferSpec {
  coin: string;
  from: string;
  to: string;
  /** Only these chains count as routes (all common chains when undefined). */
  chains: readonly string[] | undefined;
}

export interface ChainRoute {
  /** The canonical chain, or for a network without one, its network id (matched exactly at both ends). */
  chain: string;
  /** The networks of this chain at each end (ids as each exchange sends them). */
  fromNetworks: string[];
  toNetworks: string[];
  withdraw: Flag;
  deposit: Flag;
  state: 'open' | 'closed' | 'unknown';
}

export interface TransferRoute {
  coin: string;
  from: string;
  to: string;
  /** open: some chain is a route; closed: none is and nothing is unknown; unknown: cannot tell. */
  state: 'open' | 'closed' | 'unknown';
  /** Chains listed at both ends (narrowed to the spec's chains), in `from`'s network order. */
  chains: ChainRoute[];
  /** The chains that are routes now. */
  open: string[];
  /** Each common chain's state at both ends, one line (the alert's description). */
  description: string;
}

/** A network's chain at an exchange: the canonical chain, or null when unknown. */
export type ChainOf = (exchange: string, network: string) => string | null;

interface End {
  /** Coins not known yet at this end (not polled, or the coin set aside). */
  known: boolean;
  listed: boolean;
  /** chain -> network ids, flag (folded over the chain's networks). */
  chains: Map<string, { networks: string[]; flag: Flag }>;
}

function end(snapshot: Snapshot | undefined, coin: string, direction: 'withdraw' | 'deposit', chainOf: (network: string) => string | null): End {
  const chains = new Map<string, { networks: string[]; flag: Flag }>();
  if (snapshot === undefined || snapshot.coinsAt === null || snapshot.unknownCoins?.has(unknownKey(coin)) === true) return { known: false, listed: false, chains };
  const record = snapshot.coins.get(coin);
  if (record === undefined) return { known: true, listed: false, chains };
  for (const n of record.networkList) {
    const chain = chainOf(n.network) ?? n.network;
    const flag = snapshot.unknownCoins?.has(unknownKey(coin, n.network)) === true ? null : flagOf(n, direction);
    const had = chains.get(chain);
    if (had === undefined) chains.set(chain, { networks: [n.network], flag });
    else {
      had.networks.push(n.network);
      had.flag = fold(had.flag, flag);
    }
  }
  return { known: true, listed: true, chains };
}

function flagOf(n: NetworkRecord, direction: 'withdraw' | 'deposit'): Flag {
  const v = (direction === 'withdraw' ? n.withdrawEnable : n.depositEnable) as boolean | null | undefined;
  return v === true ? true : v === false ? false : null;
}

/** Several networks of one chain at one end: open if any is, else unknown if any is, else closed. */
function fold(a: Flag, b: Flag): Flag {
  if (a === true || b === true) return true;
  if (a === null || b === null) return null;
  return false;
}

function routeState(withdraw: Flag, deposit: Flag): ChainRoute['state'] {
  if (withdraw === true && deposit === true) return 'open';
  if (withdraw === false || deposit === false) return 'closed';
  return 'unknown';
}

const word = (f: Flag): string => (f === true ? 'open' : f === false ? 'closed' : 'unknown');

export function judgeTransfer(spec: TransferSpec, fromSnapshot: Snapshot | undefined, toSnapshot: Snapshot | undefined, chainOf: ChainOf): TransferRoute {
  const { coin, from, to } = spec;
  const a = end(fromSnapshot, coin, 'withdraw', (n) => chainOf(from, n));
  const b = end(toSnapshot, coin, 'deposit', (n) => chainOf(to, n));
  const chains: ChainRoute[] = [];
  for (const [chain, w] of a.chains) {
    const d = b.chains.get(chain);
    if (d === undefined || (spec.chains !== undefined && !spec.chains.includes(chain))) continue;
    chains.push({ chain, fromNetworks: w.networks, toNetworks: d.networks, withdraw: w.flag, deposit: d.flag, state: routeState(w.flag, d.flag) });
  }
  const open = chains.filter((c) => c.state === 'open').map((c) => c.chain);
  const state: TransferRoute['state'] =
    !a.known || !b.known ? 'unknown' : open.length > 0 ? 'open' : chains.some((c) => c.state === 'unknown') ? 'unknown' : 'closed';
  return { coin, from, to, state, chains, open, description: describe(spec, a, b, chains) };
}

/**
 * "tron: withdraw closed at binance, deposit open at weex; bsc: withdraw open at binance,
 * deposit closed at weex". Without a common chain: what each end lists.
 */
function describe(spec: TransferSpec, a: End, b: End, chains: readonly ChainRoute[]): string {
  const { coin, from, to } = spec;
  if (!a.known || !b.known) return `${coin} at ${!a.known ? from : to}: not known yet`;
  if (chains.length > 0) return chains.map((c) => `${c.chain}: withdraw ${word(c.withdraw)} at ${from}, deposit ${word(c.deposit)} at ${to}`).join('; ');
  const list = (e: End, name: string): string => `${name} ${!e.listed ? 'does not list it' : e.chains.size === 0 ? 'lists no network' : `has ${[...e.chains.keys()].join(', ')}`}`;
  const only = spec.chains !== undefined ? ` among ${spec.chains.join(', ')}` : '';
  return `no common chain${only}: ${list(a, from)}; ${list(b, to)}`;
}
