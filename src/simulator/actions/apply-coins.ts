/** Actions on coins and networks: what `/api/v3/coins` shows changes, and its version moves. */
import { findChain } from '../catalog/chains';
import type { Market, SimCoin, SimNetwork } from '../market/model';
import { touchCoin } from '../market/model';
import { ActionError } from './action-error';
import type { Action, NetworkPatch } from './schema';

type Of<K extends Action['action']> = Extract<Action, { action: K }>;

function coinOf(market: Market, coin: string): SimCoin {
  const found = market.coins.get(coin);
  if (found === undefined) throw new ActionError([`unknown coin "${coin}"`]);
  return found;
}

/** The ids a dialect names a coin's network by in its answers (DialectRenderer.networkIds). */
export type NetworkIds = (coin: string, n: SimNetwork) => readonly string[];

/**
 * A coin's network by the model's id or, when the exchange speaks another dialect, by an id that
 * dialect gives it (`TRX` on binance for `Tron(TRC20)`): what a user reads in an answer.
 */
function networkOf(coin: SimCoin, network: string, ids?: NetworkIds): SimNetwork {
  const found = coin.networks.find((n) => n.network === network) ?? (ids === undefined ? undefined : coin.networks.find((n) => ids(coin.coin, n).includes(network)));
  if (found === undefined) {
    const names = coin.networks.map((n) => (ids === undefined ? n.network : (ids(coin.coin, n)[0] ?? n.network)));
    throw new ActionError([`coin ${coin.coin} has no network "${network}" (it has: ${names.join(', ')})`]);
  }
  return found;
}

/** A new network's values before its patch: the chain's usual settings where the chain is known. */
function defaultNetwork(network: string): SimNetwork {
  const chain = findChain(network);
  return {
    network, name: chain?.name ?? network, isDefault: false, depositEnable: true, withdrawEnable: true,
    withdrawFee: '0', withdrawMin: '0', withdrawInternalMin: null, withdrawIntegerMultiple: { text: '1E-8', asString: false },
    minConfirm: chain?.minConfirm ?? 1, withdrawTag: chain?.tag ?? false, depositDust: '0',
    contractAddress: '', contractAddressUrl: chain?.explorer ?? '', depositDesc: null, withdrawDesc: null,
  };
}

/** Setting isDefault moves the default: exactly one network of a coin is the default. */
function patchNetwork(coin: SimCoin, target: SimNetwork, patch: NetworkPatch): void {
  const { isDefault, ...fields } = patch;
  Object.assign(target, fields);
  if (isDefault === true) for (const n of coin.networks) n.isDefault = n === target;
}

export function setNetwork(market: Market, a: Of<'set_network'>, ids?: NetworkIds): void {
  const coin = coinOf(market, a.coin);
  patchNetwork(coin, networkOf(coin, a.network, ids), a.set);
  touchCoin(market, coin);
}

export function setCoin(market: Market, a: Of<'set_coin'>): void {
  const coin = coinOf(market, a.coin);
  coin.name = a.set.name;
  touchCoin(market, coin);
}

export function listCoin(market: Market, a: Of<'list_coin'>): void {
  if (market.coins.has(a.coin)) throw new ActionError([`coin ${a.coin} is already listed`]);
  const coin: SimCoin = { coin: a.coin, name: a.name, networks: [], version: 0 };
  for (const { network, isDefault: _, ...patch } of a.networks) {
    const n = defaultNetwork(network);
    coin.networks.push(n);
    patchNetwork(coin, n, patch);
  }
  const chosen = a.networks.findIndex((n) => n.isDefault === true);
  coin.networks.forEach((n, i) => {
    n.isDefault = i === Math.max(0, chosen);
  });
  market.coins.set(coin.coin, coin);
  touchCoin(market, coin);
}

/** A delisted coin takes its trading pairs with it: every base and quote is a listed coin. */
export function delistCoin(market: Market, a: Of<'delist_coin'>): void {
  coinOf(market, a.coin);
  market.coins.delete(a.coin);
  for (const s of [...market.symbols.values()]) if (s.base === a.coin || s.quote === a.coin) market.symbols.delete(s.symbol);
  market.coinsVersion += 1;
  market.symbolsVersion += 1;
}

export function addNetwork(market: Market, a: Of<'add_network'>): void {
  const coin = coinOf(market, a.coin);
  if (coin.networks.some((n) => n.network === a.network)) throw new ActionError([`coin ${a.coin} already has network "${a.network}"`]);
  const n = defaultNetwork(a.network);
  coin.networks.push(n);
  patchNetwork(coin, n, a.set ?? {});
  touchCoin(market, coin);
}

/** Removing the default network hands the default to the first one left. */
export function removeNetwork(market: Market, a: Of<'remove_network'>, ids?: NetworkIds): void {
  const coin = coinOf(market, a.coin);
  const n = networkOf(coin, a.network, ids);
  if (coin.networks.length === 1) throw new ActionError([`network "${a.network}" is the last of ${a.coin}; delist the coin instead`]);
  coin.networks = coin.networks.filter((x) => x !== n);
  if (n.isDefault) (coin.networks[0] as SimNetwork).isDefault = true;
  touchCoin(market, coin);
}
