/**
 * Canonical chains (dialects.md section 3, the contract): every network id an exchange uses
 * maps to one chain name (`tron`, `ethereum`, `bsc`, ...), so that the same chain is
 * recognised across exchanges (the `chain` label, the `transfer` condition). Pure: no I/O.
 *
 * How a network id is looked up, first answer wins:
 * 1. the config's `chains.aliases` (network id -> chain, exact text, for every dialect);
 * 2. the dialect's column of the table (exact, case-sensitive, as dialects.md says); for `okx`,
 *    whose ids are `<ccy>-<chain name>` (OKX docs, "Get currencies": `chain` "USDT-TRC20",
 *    "BTC-Bitcoin"), then the chain name after the coin (`LINK-ERC20` -> `ERC20` -> ethereum),
 *    the names being those of the okx column's ids (`USDT-ERC20` -> `ERC20`): the table lists a
 *    chain once, not once per coin;
 * 3. for `spot-v3` (the spec's interface, which has no column: each exchange speaking it names
 *    networks its own way), every id of every column plus the common spellings in SPOT_V3_EXTRA,
 *    first exactly, then trimmed and lower-cased (`" trc20 "` -> key `trc20` -> `tron`).
 * Otherwise the chain is unknown: null (dialects.md: `chain` is null in `once --json`, and the
 * alert carries no `chain` label).
 */

/** The dialects with a column in the table, in dialects.md's order. */
const CHAIN_DIALECTS = ['binance', 'mexc', 'bitget', 'kucoin', 'gate', 'htx', 'okx', 'bybit'] as const;
export type ChainDialect = (typeof CHAIN_DIALECTS)[number];

type Row = readonly [chain: string, ids: Readonly<Partial<Record<ChainDialect, readonly string[]>>>];

/** dialects.md section 3, row by row (a `—` there is an absent key here). */
export const CHAIN_TABLE: readonly Row[] = [
  ['bitcoin', { binance: ['BTC', 'SEGWITBTC'], mexc: ['Bitcoin(BTC)'], bitget: ['BTC'], kucoin: ['btc', 'bech32'], gate: ['BTC'], htx: ['btc'], okx: ['BTC-Bitcoin'], bybit: ['BTC'] }],
  ['ethereum', { binance: ['ETH'], mexc: ['Ethereum(ERC20)', 'ETH'], bitget: ['ERC20'], kucoin: ['eth'], gate: ['ETH'], htx: ['usdterc20', 'hbtc'], okx: ['ETH-ERC20', 'USDT-ERC20'], bybit: ['ETH'] }],
  ['tron', { binance: ['TRX'], mexc: ['Tron(TRC20)', 'TRX'], bitget: ['TRC20'], kucoin: ['trx'], gate: ['TRX'], htx: ['trc20usdt', 'trc20btc'], okx: ['USDT-TRC20'], bybit: ['TRX'] }],
  ['bsc', { binance: ['BSC'], mexc: ['BNB Smart Chain(BEP20)', 'BSC'], bitget: ['BEP20', 'BSC'], kucoin: ['bsc'], gate: ['BSC'], htx: ['bep20usdt'], okx: ['USDT-BSC'], bybit: ['BSC'] }],
  ['solana', { binance: ['SOL'], mexc: ['Solana(SOL)'], bitget: ['SOL'], kucoin: ['sol'], gate: ['SOL'], htx: ['solusdt'], okx: ['BTC-Solana', 'USDT-Solana'], bybit: ['SOL'] }],
  ['arbitrum', { binance: ['ARBITRUM'], mexc: ['Arbitrum One(ARB)', 'ARB'], bitget: ['ArbitrumOne'], kucoin: ['arbitrum'], gate: ['ARBEVM'], htx: ['arc20usdt'], okx: ['ETH-Arbitrum One', 'USDT-Arbitrum One'], bybit: ['ARBI'] }],
  ['optimism', { binance: ['OPTIMISM'], mexc: ['Optimism(OP)', 'OP'], bitget: ['Optimism'], kucoin: ['optimism'], gate: ['OPETH'], htx: ['optusdt'], okx: ['ETH-Optimism', 'USDT-Optimism'], bybit: ['OP'] }],
  ['polygon', { binance: ['MATIC'], mexc: ['Polygon(MATIC)'], bitget: ['Polygon'], kucoin: ['matic'], gate: ['MATIC'], okx: ['USDT-Polygon'], bybit: ['MATIC'] }],
  ['ton', { binance: ['TON'], mexc: ['TONCOIN'], bitget: ['TON'], kucoin: ['ton'], gate: ['TON'], okx: ['USDT-TON'], bybit: ['TON'] }],
  ['avalanche-c', { binance: ['AVAXC'], mexc: ['AVAX_CCHAIN'], bitget: ['C-Chain'], kucoin: ['avaxc'], gate: ['AVAX_C'], htx: ['cchainusdt'], okx: ['USDT-Avalanche C-Chain'], bybit: ['CAVAX'] }],
  ['base', { binance: ['BASE'], gate: ['BASEEVM'], okx: ['ETH-Base'], bybit: ['BASE'] }],
  ['bitcoin-lightning', { binance: ['LIGHTNING'], bitget: ['LIGHTNING'], okx: ['BTC-Lightning'] }],
  ['heco', { mexc: ['HECO'], bitget: ['HECO'], kucoin: ['heco'], gate: ['HT'], htx: ['hrc20usdt', 'hrc20btc'] }],
  ['kava-evm', { binance: ['KAVAEVM'], kucoin: ['kavaevm'], gate: ['KAVAEVM'], bybit: ['KAVAEVM'], bitget: ['KAVAEVMToken'] }],
  ['eos', { binance: ['EOS'], mexc: ['EOS'], bitget: ['EOS'], kucoin: ['eos'], gate: ['EOS'], bybit: ['EOS'] }],
];

/**
 * Spellings spot-v3 exchanges use besides the table's ids (the reference exchange's
 * `Polygon(POS)`; WEEX-style token standards). Matched trimmed and lower-cased.
 */
const SPOT_V3_EXTRA: readonly Row[] = [
  ['ethereum', { binance: ['ERC20'] }],
  ['tron', { binance: ['TRC20', 'TRON'] }],
  ['bsc', { binance: ['BEP20', 'BNB Smart Chain'] }],
  ['polygon', { binance: ['Polygon(POS)', 'POLYGON'] }],
  ['arbitrum', { binance: ['Arbitrum One'] }],
  ['avalanche-c', { binance: ['AVAX-C', 'AVAX C-Chain'] }],
];

/** network id -> chain (the config's `chains.aliases`). */
export type ChainAliases = Readonly<Record<string, string>>;

/** The dialect every exchange speaks unless configured otherwise (the spec's interface). */
const SPOT_V3 = 'spot-v3';

/** How spot-v3 ids are compared after an exact miss. */
function normalizeNetworkId(id: string): string {
  return id.trim().toLowerCase();
}

export class ChainTable {
  private readonly columns = new Map<string, Map<string, string>>(CHAIN_DIALECTS.map((d) => [d, new Map()]));
  /** OKX's chain names without the coin (`TRC20`, `Arbitrum One`) -> chain. */
  private readonly okxChains = new Map<string, string>();
  private readonly spotExact = new Map<string, string>();
  private readonly spotLoose = new Map<string, string>();
  private readonly aliases: ReadonlyMap<string, string>;

  constructor(aliases: ChainAliases = {}) {
    this.aliases = new Map(Object.entries(aliases));
    for (const [chain, ids] of CHAIN_TABLE) {
      for (const d of CHAIN_DIALECTS) for (const id of ids[d] ?? []) setOnce(this.columns.get(d) as Map<string, string>, id, chain, d);
      for (const id of ids.okx ?? []) setOnce(this.okxChains, okxChainName(id), chain, 'okx');
    }
    for (const [chain, ids] of [...CHAIN_TABLE, ...SPOT_V3_EXTRA]) {
      for (const list of Object.values(ids)) {
        for (const id of list ?? []) {
          // The same id in two columns names the same chain (checked: setOnce throws otherwise).
          setOnce(this.spotExact, id, chain, SPOT_V3);
          setOnce(this.spotLoose, normalizeNetworkId(id), chain, SPOT_V3);
        }
      }
    }
  }

  /** The canonical chain of a network id as an exchange speaking `dialect` sends it; null when unknown. */
  chainOf(dialect: string, network: string): string | null {
    const alias = this.aliases.get(network);
    if (alias !== undefined) return alias;
    const col = this.columns.get(dialect);
    if (col !== undefined) return col.get(network) ?? (dialect === 'okx' ? this.okxChains.get(okxChainName(network)) : undefined) ?? null;
    if (dialect !== SPOT_V3) return null;
    return this.spotExact.get(network) ?? this.spotLoose.get(normalizeNetworkId(network)) ?? null;
  }
}

/** The chain name of an OKX id, after its `<ccy>-` (`USDT-Avalanche C-Chain` -> `Avalanche C-Chain`); '' without one. */
function okxChainName(id: string): string {
  const dash = id.indexOf('-');
  return dash < 0 ? '' : id.slice(dash + 1);
}

function setOnce(map: Map<string, string>, id: string, chain: string, where: string): void {
  const had = map.get(id);
  if (had !== undefined && had !== chain) throw new Error(`chain table: ${where} id ${JSON.stringify(id)} names both ${had} and ${chain}`);
  map.set(id, chain);
}
