/**
 * The names by which a title names a chain (notices.md section 2, rule 4): "a network or chain
 * name of the canonical chain table (dialects.md section 3) as whole words, any case". Derived
 * from the table (src/snapshot/chains.ts), so a chain added there is named in titles too:
 * - its canonical name, `-` read as a space (`polygon`, `ethereum classic`, `x layer`);
 * - OKX's chain names, the one column spelled as names (`Arbitrum One`, `Avalanche C-Chain`,
 *   `zkSync Lite`, `TRC20`, `OKTC`), from the okx ids after the coin and the `okxChain` names;
 * - TITLE_EXTRA: the names titles use that no column spells (`BEP20`, `BNB Smart Chain`, `ERC-20`).
 * Not every column's ids: Binance's `ETH`, `SOL`, `TRX` are tickers, and a ticker names a coin.
 */
import { CHAIN_TABLE } from '../snapshot/chains';

/** Names titles give chains beyond the table's columns. */
const TITLE_EXTRA: Readonly<Record<string, readonly string[]>> = {
  ethereum: ['ERC-20'],
  tron: ['TRC-20'],
  bsc: ['BEP20', 'BEP-20', 'BNB Smart Chain', 'BNB Chain'],
  'bnb-beacon': ['BEP2', 'BNB Beacon Chain'],
  'avalanche-c': ['AVAX C-Chain'],
  'bitcoin-lightning': ['Lightning Network'],
  heco: ['HRC20', 'Huobi ECO Chain'],
  'okt-chain': ['OKC', 'OKT Chain'],
  kcc: ['KuCoin Community Chain'],
  omni: ['Omni Layer'],
  'kava-evm': ['Kava EVM'],
};

/**
 * Names read as a chain only when the title says it is one (followed by `Network`, `Chain`,
 * `Mainnet`, `Blockchain` or a ticker in parentheses: `Scroll (SCR)`, `Base Network`): they are
 * ordinary words too (`in the near future`, `Buy Crypto`, `Trading Pair Symbol Change`).
 */
const ORDINARY_WORDS: ReadonlySet<string> = new Set([
  'aurora', 'band', 'base', 'blast', 'canton', 'core', 'credits', 'dash', 'dock', 'ergo', 'flare', 'flow', 'flux',
  'fusion', 'grin', 'harmony', 'helium', 'humanity', 'hydra', 'icon', 'iota', 'lightning', 'mantle', 'meter',
  'nano', 'near', 'oasis', 'oxen', 'persistence', 'pi', 'plasma', 'pocket', 'quantum', 'radix', 'reef', 'ripple',
  'scroll', 'secret', 'sentinel', 'solar', 'sonic', 'stellar', 'step', 'symbol', 'tempo', 'theta', 'wax',
]);

/**
 * Never a chain's name in a title: OKX's `Crypto` (Cronos) is the word of every `Buy Crypto`;
 * OKX's `Omni` (Omni Layer) is also the name of another chain, Omni Network (`Omni Layer` stays).
 */
const NOT_IN_TITLES: ReadonlySet<string> = new Set(['crypto', 'omni']);

export interface ChainName {
  /** As the table spells it. */
  readonly name: string;
  readonly chain: string;
  /** An ordinary word too: a chain only where the title says so (ORDINARY_WORDS). */
  readonly qualified: boolean;
}

/** Every name of every chain, longest first (so `Arbitrum Nova` is read before `Arbitrum`), each once. */
export function chainNames(): ChainName[] {
  const byKey = new Map<string, ChainName>();
  const add = (name: string, chain: string): void => {
    const key = name.toLowerCase();
    if (name.length < 2 || NOT_IN_TITLES.has(key) || byKey.has(key)) return;
    byKey.set(key, { name, chain, qualified: ORDINARY_WORDS.has(key) });
  };
  for (const [chain, ids] of CHAIN_TABLE) {
    add(chain.replaceAll('-', ' '), chain);
    for (const id of ids.okx ?? []) add(id.slice(id.indexOf('-') + 1), chain);
    for (const name of ids.okxChain ?? []) add(name, chain);
    for (const name of TITLE_EXTRA[chain] ?? []) add(name, chain);
  }
  return [...byKey.values()].sort((a, b) => b.name.length - a.name.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
