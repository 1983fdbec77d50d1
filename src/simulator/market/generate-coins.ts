/**
 * Coins and networks at exchange scale: the well-known coins first, then generated ones with
 * 1..5 networks (about two on average), a few closed for maintenance, a few carrying a message
 * while open. Everything comes from one seeded PRNG, so a seed names one exact market.
 */
import { pick, randomInt, type Random } from './random';
import { TOKEN_CHAINS, type AddressStyle, type TokenChain } from '../catalog/chains';
import { WELL_KNOWN_COINS, type KnownCoin } from '../catalog/well-known';
import {
  DEPOSIT_DISABLED_MESSAGES, DEPOSIT_NOTICE_MESSAGES, NAME_ENDS, NAME_STARTS, WITHDRAW_DISABLED_MESSAGES,
  WITHDRAW_NOTICE_MESSAGES,
} from '../catalog/words';
import { formatSignificant } from './decimal';
import type { SimCoin, SimNetwork } from './model';

export interface GeneratedCoins {
  coins: SimCoin[];
  /** USD price per coin, for the pairs built on them. */
  usd: Map<string, number>;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const HEX = '0123456789abcdefABCDEF';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Networks per generated coin: 1..5, weighted so the mean is about 2. */
const NETWORK_COUNTS = [1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 5] as const;
const NATIVE_CONFIRMS = [1, 2, 6, 12, 15, 20, 30, 60, 100] as const;
const DISABLED_SHARE = 0.03;
const NOTICE_SHARE = 0.008;

export function generateCoins(random: Random, count: number): GeneratedCoins {
  const coins: SimCoin[] = [];
  const usd = new Map<string, number>();
  for (const known of WELL_KNOWN_COINS.slice(0, count)) {
    coins.push(fromKnown(known));
    usd.set(known.coin, known.usd);
  }
  const taken = new Set(coins.map((c) => c.coin));
  while (coins.length < count) {
    const symbol = newCoinSymbol(random, taken);
    taken.add(symbol);
    const price = 10 ** (random() * 7.5 - 5);
    coins.push(generatedCoin(random, symbol, price));
    usd.set(symbol, price);
  }
  return { coins, usd };
}

function fromKnown(known: KnownCoin): SimCoin {
  return {
    coin: known.coin,
    name: known.name,
    version: 0,
    networks: known.networks.map((n, i) => ({
      network: n.network, name: n.name, isDefault: i === 0, depositEnable: n.deposit, withdrawEnable: n.withdraw,
      withdrawFee: n.fee, withdrawMin: n.min, withdrawInternalMin: n.internalMin,
      withdrawIntegerMultiple: { text: n.multiple, asString: false }, minConfirm: n.confirm, withdrawTag: n.tag,
      depositDust: formatSignificant(Number(n.min) / 100, 1), contractAddress: n.contract, contractAddressUrl: n.explorer,
      depositDesc: n.depositDesc, withdrawDesc: n.withdrawDesc,
    })),
  };
}

function chars(random: Random, alphabet: string, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[Math.floor(random() * alphabet.length)];
  return s;
}

/** Unique uppercase tickers, a few with digits (`1INCH`, `C98`, `API3`). */
function newCoinSymbol(random: Random, taken: ReadonlySet<string>): string {
  for (;;) {
    const length = pick(random, [2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 7]);
    let symbol = chars(random, LETTERS, length);
    const digits = random();
    if (digits < 0.02) symbol = `${randomInt(random, 1, 9)}${symbol}`;
    else if (digits < 0.05) symbol = `${symbol}${randomInt(random, 1, 99)}`;
    if (!taken.has(symbol)) return symbol;
  }
}

function generatedCoin(random: Random, coin: string, price: number): SimCoin {
  const end = random() < 0.7 ? ` ${pick(random, NAME_ENDS)}` : '';
  const name = `${pick(random, NAME_STARTS)}${end}`;
  const count = pick(random, NETWORK_COUNTS);
  const hasNative = random() < 0.25;
  const chains = pickChains(random, hasNative ? count - 1 : count);
  const networks: SimNetwork[] = [];
  if (hasNative) networks.push(nativeNetwork(random, coin, name, price));
  for (const chain of chains) networks.push(tokenNetwork(random, chain, price));
  networks.forEach((n, i) => {
    n.isDefault = i === 0;
    giveStatus(random, n);
  });
  return { coin, name, networks, version: 0 };
}

/** Distinct chains, weighted by how common each is for tokens. */
function pickChains(random: Random, count: number): TokenChain[] {
  const left = [...TOKEN_CHAINS];
  const chosen: TokenChain[] = [];
  while (chosen.length < count && left.length > 0) {
    const total = left.reduce((sum, c) => sum + c.weight, 0);
    let r = random() * total;
    const index = left.findIndex((c) => (r -= c.weight) < 0);
    chosen.push(...left.splice(index < 0 ? left.length - 1 : index, 1));
  }
  return chosen;
}

function amounts(random: Random, feeUsd: number, price: number): Pick<SimNetwork, 'withdrawFee' | 'withdrawMin' | 'depositDust' | 'withdrawIntegerMultiple' | 'withdrawInternalMin'> {
  const fee = (feeUsd * (0.7 + random() * 0.8)) / price;
  const min = fee * pick(random, [2, 5, 10, 20]);
  const multiple = price < 0.001
    ? pick(random, ['1', '0.01', '1'])
    : price < 1
      ? pick(random, ['0.0001', '0.01', '0.000001', '1E-6', '1e-6'])
      : pick(random, ['1E-8', '1e-8', '0.00000001', '0.000001', '1E-6']);
  return {
    withdrawFee: formatSignificant(fee, 2),
    withdrawMin: formatSignificant(min, 2),
    depositDust: formatSignificant(min / pick(random, [10, 100, 1000]), 1),
    withdrawIntegerMultiple: { text: multiple, asString: false },
    withdrawInternalMin: random() < 0.35 ? plainDecimal(multiple) : null,
  };
}

/** `1E-6` -> `0.000001`: the internal minimum is a decimal string, never exponent notation. */
function plainDecimal(text: string): string {
  const exponent = /^1[eE]-(\d+)$/.exec(text);
  return exponent === null ? text : `0.${'0'.repeat(Number(exponent[1]) - 1)}1`;
}

function nativeNetwork(random: Random, coin: string, name: string, price: number): SimNetwork {
  return {
    network: coin, name, isDefault: false, depositEnable: true, withdrawEnable: true,
    ...amounts(random, 0.01 + random() * 2, price),
    minConfirm: pick(random, NATIVE_CONFIRMS), withdrawTag: random() < 0.08,
    contractAddress: '', contractAddressUrl: '', depositDesc: null, withdrawDesc: null,
  };
}

function tokenNetwork(random: Random, chain: TokenChain, price: number): SimNetwork {
  return {
    network: chain.network, name: chain.name, isDefault: false, depositEnable: true, withdrawEnable: true,
    ...amounts(random, chain.feeUsd, price),
    minConfirm: chain.minConfirm, withdrawTag: chain.tag,
    contractAddress: contractAddress(random, chain.address), contractAddressUrl: chain.explorer,
    depositDesc: null, withdrawDesc: null,
  };
}

function contractAddress(random: Random, style: AddressStyle): string {
  switch (style) {
    case 'evm': return `0x${chars(random, HEX, 40)}`;
    case 'tron': return `T${chars(random, BASE58, 33)}`;
    case 'solana': return chars(random, BASE58, randomInt(random, 43, 44));
    case 'ton': return `EQ${chars(random, BASE64URL, 46)}`;
  }
}

/** About 3 % closed (deposit, withdraw or both) with a reason; a few open ones carry a notice anyway. */
function giveStatus(random: Random, n: SimNetwork): void {
  const r = random();
  if (r < DISABLED_SHARE) {
    const which = random();
    if (which < 0.7) {
      n.withdrawEnable = false;
      n.withdrawDesc = pick(random, WITHDRAW_DISABLED_MESSAGES);
    }
    if (which >= 0.5) {
      n.depositEnable = false;
      n.depositDesc = pick(random, DEPOSIT_DISABLED_MESSAGES);
    }
  } else if (r < DISABLED_SHARE + NOTICE_SHARE) {
    if (random() < 0.6) n.depositDesc = pick(random, DEPOSIT_NOTICE_MESSAGES);
    else n.withdrawDesc = pick(random, WITHDRAW_NOTICE_MESSAGES);
  }
}
