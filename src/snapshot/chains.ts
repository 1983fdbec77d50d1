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
 *    the names being those of the okx column's ids (`USDT-ERC20` -> `ERC20`) and the row's
 *    `okxChain` names (`Algorand`): the table lists a chain once, not once per coin;
 * 3. for `spot-v3` (the spec's interface, which has no column: each exchange speaking it names
 *    networks its own way), every id of every column plus the common spellings in SPOT_V3_EXTRA,
 *    first exactly, then trimmed and lower-cased (`" trc20 "` -> key `trc20` -> `tron`).
 * Otherwise the chain is unknown: null (dialects.md: `chain` is null in `once --json`, and the
 * alert carries no `chain` label).
 */

/** The dialects with a column in the table, in dialects.md's order. */
const CHAIN_DIALECTS = ['binance', 'mexc', 'bitget', 'kucoin', 'gate', 'htx', 'okx', 'bybit'] as const;
export type ChainDialect = (typeof CHAIN_DIALECTS)[number];

/**
 * The ids of one chain: per dialect, the network ids that dialect sends (exact text); `okxChain`,
 * OKX chain names without the `<ccy>-` (`Algorand`: any coin's `ALGO-Algorand`), for chains the okx
 * column has no full id of.
 */
type ChainIds = Readonly<Partial<Record<ChainDialect | 'okxChain', readonly string[]>>>;
type Row = readonly [chain: string, ids: ChainIds];

/**
 * dialects.md section 3, row by row (a `—` there is an absent key here): its fifteen rows first,
 * then the chains beyond them (issue 23), each exchange's ids as that exchange sends them, from
 * - the recorded answers (test/exchange/dialects/<name>/fixtures): mexc `BTC`, `Toncoin(TON)`, okx
 *   `OKTC` (`BTCK-OKTC`), kucoin `btcln` and `kcc`, gate `GT` and `GTEVM`, htx `aptusdt`, bybit `ZKSYNC`;
 * - ccxt 4.5.84's per-exchange `options.networks` (ts/src/<exchange>.ts), its values being the ids
 *   each exchange sends (OKX's the chain names after the coin, so in `okxChain`), grouped into one
 *   chain per ccxt network code; left out: htx's (they are HTX's `baseChain`, not the per-coin
 *   `chain` id the htx dialect reads), and the codes under which ccxt lumps different chains
 *   (BRC20 with bybit's and kucoin's plain bitcoin ids, BCHA, LUNA/LUNC whose ids ccxt swaps);
 * - OKX chain names seen in public OKX client code: `X Layer` (`USDT-X Layer`), `zkSync Lite`
 *   (`ETH-zkSync Lite`), `Starknet` (`ETH-Starknet`), `Omni` (`USDT-Omni`, OKX's Chinese API docs);
 * - issue 29: MEXC `OMNI` (an older answer's `network`, USDT's Omni Layer with `contract` "31", the
 *   Omni property id of USDT); HTX `algousdt`, `celousdt`, `nearusdt`, `polyusdt` (USDT's chains in
 *   ccxt's recorded `ts/src/test/static/response/htx.json`, displayName ALGO, CELO, NEAR, POLYGON);
 *   Gate `KSMSM` and `DOTSM` are the Statemine and Statemint parachains, now Kusama and Polkadot
 *   Asset Hub (where USDT lives, asset id 1984), not the relay chains (Gate's relay DOT is `DOT`).
 */
export const CHAIN_TABLE: readonly Row[] = [
  ['bitcoin', { binance: ['BTC', 'SEGWITBTC'], mexc: ['Bitcoin(BTC)', 'BTC'], bitget: ['BTC'], kucoin: ['btc', 'bech32'], gate: ['BTC'], htx: ['btc'], okx: ['BTC-Bitcoin'], bybit: ['BTC'] }],
  ['ethereum', { binance: ['ETH'], mexc: ['Ethereum(ERC20)', 'ETH'], bitget: ['ERC20'], kucoin: ['eth'], gate: ['ETH'], htx: ['usdterc20', 'hbtc'], okx: ['ETH-ERC20', 'USDT-ERC20'], bybit: ['ETH'] }],
  ['tron', { binance: ['TRX'], mexc: ['Tron(TRC20)', 'TRX'], bitget: ['TRC20', 'TRC10'], kucoin: ['trx'], gate: ['TRX'], htx: ['trc20usdt', 'trc20btc'], okx: ['USDT-TRC20'], bybit: ['TRX'] }],
  ['bsc', { binance: ['BSC'], mexc: ['BNB Smart Chain(BEP20)', 'BSC'], bitget: ['BEP20', 'BSC'], kucoin: ['bsc'], gate: ['BSC'], htx: ['bep20usdt'], okx: ['USDT-BSC'], bybit: ['BSC'] }],
  ['solana', { binance: ['SOL'], mexc: ['Solana(SOL)'], bitget: ['SOL'], kucoin: ['sol'], gate: ['SOL'], htx: ['solusdt'], okx: ['BTC-Solana', 'USDT-Solana'], bybit: ['SOL'] }],
  ['arbitrum', { binance: ['ARBITRUM'], mexc: ['Arbitrum One(ARB)', 'ARB'], bitget: ['ArbitrumOne'], kucoin: ['arbitrum'], gate: ['ARBEVM'], htx: ['arc20usdt'], okx: ['ETH-Arbitrum One', 'USDT-Arbitrum One'], bybit: ['ARBI'] }],
  ['optimism', { binance: ['OPTIMISM'], mexc: ['Optimism(OP)', 'OP'], bitget: ['Optimism'], kucoin: ['optimism'], gate: ['OPETH'], htx: ['optusdt'], okx: ['ETH-Optimism', 'USDT-Optimism'], bybit: ['OP'] }],
  ['polygon', { binance: ['MATIC'], mexc: ['Polygon(MATIC)'], bitget: ['Polygon'], kucoin: ['matic'], gate: ['MATIC'], htx: ['polyusdt'], okx: ['USDT-Polygon'], bybit: ['MATIC'] }],
  ['ton', { binance: ['TON'], mexc: ['TONCOIN', 'Toncoin(TON)'], bitget: ['TON'], kucoin: ['ton'], gate: ['TON'], okx: ['USDT-TON'], bybit: ['TON'] }],
  ['avalanche-c', { binance: ['AVAXC'], mexc: ['AVAX_CCHAIN'], bitget: ['C-Chain'], kucoin: ['avaxc'], gate: ['AVAX_C'], htx: ['cchainusdt'], okx: ['USDT-Avalanche C-Chain'], bybit: ['CAVAX'] }],
  ['base', { binance: ['BASE'], kucoin: ['base'], gate: ['BASEEVM'], okx: ['ETH-Base'], bybit: ['BASE'] }],
  ['bitcoin-lightning', { binance: ['LIGHTNING'], bitget: ['LIGHTNING'], kucoin: ['btcln'], okx: ['BTC-Lightning'] }],
  ['heco', { mexc: ['HECO'], bitget: ['HECO'], kucoin: ['heco'], gate: ['HT'], htx: ['hrc20usdt', 'hrc20btc'] }],
  ['kava-evm', { binance: ['KAVAEVM'], bitget: ['KAVAEVMToken'], kucoin: ['kavaevm'], gate: ['KAVAEVM'], bybit: ['KAVAEVM'] }],
  ['eos', { binance: ['EOS'], mexc: ['EOS'], bitget: ['EOS'], kucoin: ['eos'], gate: ['EOS'], bybit: ['EOS'], okxChain: ['EOS'] }],
  ['bnb-beacon', { binance: ['BNB'], kucoin: ['bnb'], bybit: ['BNB'] }],
  ['chiliz', { binance: ['CHZ2'], bitget: ['ChilizChain'], bybit: ['CHILIZ'] }],
  ['xrp-ledger', { binance: ['XRP'], bitget: ['XRP'], kucoin: ['xrp'], bybit: ['XRP'], okxChain: ['Ripple'] }],
  ['dogecoin', { binance: ['DOGE'], bitget: ['DOGE'], kucoin: ['doge'], bybit: ['DOGE'], okxChain: ['Dogecoin'] }],
  ['sonic', { binance: ['SONIC'], bybit: ['SONIC'], okxChain: ['Sonic'] }],
  ['sui', { binance: ['SUI'], gate: ['SUI'], bybit: ['SUI'], okxChain: ['SUI'] }],
  ['near', { binance: ['NEAR'], bitget: ['NEARProtocol'], kucoin: ['near'], gate: ['NEAR'], htx: ['nearusdt'], bybit: ['NEAR'], okxChain: ['NEAR'] }],
  ['aptos', { binance: ['APT'], mexc: ['APTOS'], bitget: ['Aptos'], kucoin: ['aptos'], gate: ['APT'], htx: ['aptusdt'], bybit: ['APTOS'], okxChain: ['Aptos'] }],
  ['scroll', { binance: ['SCROLL'], gate: ['SCROLLETH'], bybit: ['SCROLL'], okxChain: ['Scroll'] }],
  ['kava', { binance: ['KAVA'], bitget: ['KAVA'], kucoin: ['kava'] }],
  ['stellar', { binance: ['XLM'], kucoin: ['xlm'], gate: ['XLM'], bybit: ['XLM'], okxChain: ['Stellar Lumens'] }],
  ['rootstock', { binance: ['RSK'], mexc: ['RBTC'], bitget: ['RSK'], gate: ['RBTC'] }],
  ['sei', { binance: ['SEI'], okxChain: ['SEI'] }],
  ['cardano', { binance: ['ADA'], bitget: ['Cardano'], kucoin: ['ada'], gate: ['ADA'], bybit: ['ADA'], okxChain: ['Cardano'] }],
  ['algorand', { binance: ['ALGO'], kucoin: ['algo'], gate: ['ALGO'], htx: ['algousdt'], bybit: ['ALGO'], okxChain: ['Algorand'] }],
  ['thorchain', { binance: ['RUNE'] }],
  ['osmosis', { binance: ['OSMO'], bitget: ['Osmosis'], kucoin: ['osmo'] }],
  ['celo', { binance: ['CELO'], bitget: ['CELO'], kucoin: ['celo'], gate: ['CELO'], htx: ['celousdt'], bybit: ['CELO'], okxChain: ['CELO'] }],
  ['hedera', { binance: ['HBAR'], kucoin: ['hbar'], gate: ['HBAR'], bybit: ['HBAR'], okxChain: ['Hedera'] }],
  ['zksync-era', { binance: ['ZKSYNCERA'], mexc: ['ZKSYNCERA'], bitget: ['zkSyncEra'], gate: ['ZKSERA'], bybit: ['ZKV2'], okxChain: ['zkSync Era'] }],
  ['klaytn', { binance: ['KLAY'], bitget: ['Klaytn'], kucoin: ['klay'], gate: ['KLAY'], bybit: ['KLAY'], okxChain: ['Klaytn'] }],
  ['acala', { binance: ['ACA'], mexc: ['ACALA'], bitget: ['AcalaToken'], kucoin: ['aca'], gate: ['ACA'], bybit: ['ACA'], okxChain: ['Acala'] }],
  ['stacks', { binance: ['STX'], mexc: ['STACKS'], kucoin: ['stx'], bybit: ['STX'], okxChain: ['l-Stacks'] }],
  ['tezos', { binance: ['XTZ'], kucoin: ['xtz'], gate: ['XTZ'], bybit: ['XTZ'], okxChain: ['Tezos'] }],
  ['metis', { binance: ['METIS'], bitget: ['MetisToken'], kucoin: ['metis'], okxChain: ['Metis'] }],
  ['multiversx', { binance: ['EGLD'], bitget: ['Elrond'], kucoin: ['egld'], gate: ['EGLD'], bybit: ['EGLD'], okxChain: ['Elrond'] }],
  ['astar', { binance: ['ASTR'], mexc: ['ASTAR'], kucoin: ['astr'], okxChain: ['Astar'] }],
  ['conflux', { binance: ['CFX'], kucoin: ['cfx'], okxChain: ['Conflux'] }],
  ['secret', { binance: ['SCRT'], kucoin: ['scrt'], bybit: ['SCRT'] }],
  ['ontology', { binance: ['ONT'], bitget: ['Ontology'], kucoin: ['ont'], okxChain: ['Ontology'] }],
  ['zcash', { binance: ['ZEC'], kucoin: ['zec'], okxChain: ['Zcash'] }],
  ['monero', { binance: ['XMR'], kucoin: ['xmr'] }],
  ['bitcoin-cash', { binance: ['BCH'], bitget: ['BCH'], kucoin: ['bch'], bybit: ['BCH'], okxChain: ['BitcoinCash'] }],
  ['litecoin', { binance: ['LTC'], bitget: ['LTC'], kucoin: ['ltc'], bybit: ['LTC'], okxChain: ['Litecoin'] }],
  ['bittensor', { binance: ['TAO'] }],
  ['worldchain', { binance: ['WLD'] }],
  ['internet-computer', { binance: ['ICP'], bitget: ['ICP'], kucoin: ['icp'], bybit: ['ICP'], okxChain: ['Dfinity'] }],
  ['flare', { binance: ['FLR'], okxChain: ['Flare'] }],
  ['cosmos', { binance: ['ATOM'], bitget: ['ATOM'], kucoin: ['atom'], bybit: ['ATOM'], okxChain: ['Cosmos'] }],
  ['filecoin', { binance: ['FIL'], bitget: ['FIL'], kucoin: ['fil'], bybit: ['FIL'], okxChain: ['Filecoin'] }],
  ['injective', { binance: ['INJ'], okxChain: ['INJ'] }],
  ['dash', { binance: ['DASH'] }],
  ['vechain', { binance: ['VET'], kucoin: ['vet'] }],
  ['fetch-ai', { binance: ['FET'], bitget: ['FETCH'] }],
  ['celestia', { binance: ['TIA'], okxChain: ['Celestia'] }],
  ['kaia', { binance: ['KAIA'] }],
  ['decred', { binance: ['DCR'], kucoin: ['dcr'] }],
  ['iota', { binance: ['IOTA'], kucoin: ['iota'], okxChain: ['MIOTA'] }],
  ['theta', { binance: ['THETA'], bitget: ['ThetaToken'], kucoin: ['theta'], okxChain: ['Theta'] }],
  ['arweave', { binance: ['AR'], bitget: ['Arweave'], kucoin: ['ar'], okxChain: ['Arweave'] }],
  ['dydx', { binance: ['DYDX'], bybit: ['DYDX'], okxChain: ['DYDX'] }],
  ['ecash', { binance: ['XEC'], kucoin: ['xec'], bybit: ['XEC'] }],
  ['qtum', { binance: ['QTUM'], bitget: ['QTUM'], kucoin: ['qtum'] }],
  ['enjin', { binance: ['ENJ'] }],
  ['ravencoin', { binance: ['RVN'], kucoin: ['rvn'], okxChain: ['Ravencoin'] }],
  ['zilliqa', { binance: ['ZIL'], bitget: ['ZIL'], kucoin: ['zil'], bybit: ['ZIL'], okxChain: ['Zilliqa'] }],
  ['berachain', { binance: ['BERA'], okxChain: ['Berachain'] }],
  ['0g', { binance: ['0G'], bybit: ['ZEROGRAVITY'] }],
  ['mina', { binance: ['MINA'], bitget: ['MINA'], okxChain: ['Mina'] }],
  ['axelar', { binance: ['AXL'] }],
  ['oasis', { binance: ['ROSE'], mexc: ['ROSE'], bitget: ['ROSE'], kucoin: ['oasis'], bybit: ['ROSE'] }],
  ['nervos', { binance: ['CKB'], kucoin: ['ckb'] }],
  ['digibyte', { binance: ['DGB'], kucoin: ['dgb'], okxChain: ['Digibyte'] }],
  ['movement', { binance: ['MOVE'], bybit: ['MOVE'] }],
  ['verge', { binance: ['XVG'] }],
  ['sia', { binance: ['SC'], okxChain: ['Siacoin'] }],
  ['linea', { binance: ['LINEA'], gate: ['LINEAETH'], okxChain: ['Linea'] }],
  ['waves', { binance: ['WAVES'], bitget: ['WAVES'], kucoin: ['waves'] }],
  ['manta', { binance: ['MANTA'] }],
  ['starknet', { mexc: ['STARKNET'], bitget: ['Starknet'], okxChain: ['Starknet'] }],
  ['peaq', { mexc: ['PEAQEVM'] }],
  ['bytom', { mexc: ['BTM2'], kucoin: ['btm'] }],
  ['cronos', { mexc: ['CRONOS'], bitget: ['CronosChain'], gate: ['CRO'], okxChain: ['Crypto'] }],
  ['polkadot-asset-hub', { mexc: ['DOTASSETHUB'], gate: ['DOTSM'] }],
  ['ethereum-fair', { mexc: ['ETF'], bitget: ['ETHFAIR'] }],
  ['okt-chain', { mexc: ['OKT'], gate: ['OKT'], okxChain: ['OKTC'] }],
  ['arbitrum-nova', { bitget: ['ArbitrumNova'], gate: ['ARBNOVA'], bybit: ['ARBINOVA'] }],
  ['avalanche-x', { bitget: ['X-Chain'], kucoin: ['avax'], bybit: ['XAVAX'], okxChain: ['Avalanche X-Chain'] }],
  ['bitci', { bitget: ['BITCI'] }],
  ['casper', { bitget: ['CSPR'], kucoin: ['cspr'], okxChain: ['Casper'] }],
  ['polkadot', { bitget: ['DOT'], kucoin: ['dot'], gate: ['DOT'], bybit: ['DOT'], okxChain: ['Polkadot'] }],
  ['ethereum-pow', { bitget: ['ETHW'], kucoin: ['ethw'], bybit: ['ETHW'], okxChain: ['EthereumPow'] }],
  ['ethereum-classic', { bitget: ['ETC'], kucoin: ['etc'], bybit: ['ETC'], okxChain: ['Ethereum Classic'] }],
  ['fio', { bitget: ['FIO'] }],
  ['fantom', { bitget: ['Fantom'], kucoin: ['ftm'] }],
  ['harmony', { bitget: ['Harmony'], kucoin: ['one'], bybit: ['ONE'] }],
  ['helium', { bitget: ['Helium'], kucoin: ['hnt'] }],
  ['iotex', { bitget: ['IoTeX'], kucoin: ['iotx'] }],
  ['kardiachain', { bitget: ['KAI'], kucoin: ['kai'] }],
  ['kadena', { bitget: ['KDA'], kucoin: ['kda'] }],
  ['kusama', { bitget: ['Kusama'], kucoin: ['ksm'], okxChain: ['Kusama'] }],
  ['platon', { bitget: ['LAT'] }],
  ['moonriver', { bitget: ['MOVR'], kucoin: ['movr'], okxChain: ['Moonriver'] }],
  ['moonbeam', { bitget: ['Moonbeam'], kucoin: ['glmr'], gate: ['GLMR'], bybit: ['GLMR'], okxChain: ['Moonbeam'] }],
  ['nuls', { bitget: ['NULS'], kucoin: ['nuls'], okxChain: ['NULS'] }],
  ['oasys', { bitget: ['OASYS'], kucoin: ['oas'], bybit: ['OAS'], okxChain: ['OASYS'] }],
  ['omni', { mexc: ['OMNI'], bitget: ['OMNI'], okxChain: ['Omni'] }],
  ['pocket', { bitget: ['PocketNetwork'], kucoin: ['pokt'] }],
  ['reef', { bitget: ['REEF'] }],
  ['syscoin', { bitget: ['SYS'] }],
  ['solar', { bitget: ['Solar'], kucoin: ['sxp'] }],
  ['symbol', { bitget: ['Symbol'], kucoin: ['xym'] }],
  ['thundercore', { bitget: ['TT'], kucoin: ['TT'] }],
  ['telos', { bitget: ['Telos'], kucoin: ['tlos'] }],
  ['vite', { bitget: ['VITE'] }],
  ['wax', { bitget: ['WAXP'], kucoin: ['waxp'], bybit: ['WAXP'], okxChain: ['Wax'] }],
  ['wemix', { bitget: ['WEMIXMainnet'], kucoin: ['wemix'] }],
  ['xdc', { bitget: ['XDCNetworkXDC'], kucoin: ['xdc'] }],
  ['nem', { bitget: ['NEM'], kucoin: ['NEM'] }],
  ['rei', { bitget: ['REINetwork'] }],
  ['abbc', { bitget: ['ABBCCoin'], kucoin: ['abbc'] }],
  ['aleph-zero', { bitget: ['AZERO'] }],
  ['juno', { bitget: ['JUNO'] }],
  ['canto', { bitget: ['CANTO-EVM'] }],
  ['viction', { bitget: ['VICTION'] }],
  ['kcc', { kucoin: ['kcc'] }],
  ['radix', { kucoin: ['xrd'] }],
  ['bitcoin-sv', { kucoin: ['bchsv'], okxChain: ['Bitcoin SV'] }],
  ['nano', { kucoin: ['nano'], okxChain: ['Nano'] }],
  ['iost', { kucoin: ['iost'] }],
  ['tomochain', { kucoin: ['tomo'] }],
  ['coti', { kucoin: ['coti'] }],
  ['steem', { kucoin: ['steem'] }],
  ['flux', { kucoin: ['flux'] }],
  ['lisk', { kucoin: ['lsk'], okxChain: ['Lisk'] }],
  ['v-systems', { kucoin: ['vsys'] }],
  ['karura', { kucoin: ['kar'] }],
  ['chia', { kucoin: ['xch'], okxChain: ['Chia'] }],
  ['flow', { kucoin: ['flow'], okxChain: ['FLOW'] }],
  ['band', { kucoin: ['band'] }],
  ['xpr-network', { kucoin: ['xpr'] }],
  ['calamari', { kucoin: ['kma'] }],
  ['polkadex', { kucoin: ['pdex'] }],
  ['akash', { kucoin: ['akt'] }],
  ['fusion', { kucoin: ['fsn'] }],
  ['centrifuge', { kucoin: ['cfg'] }],
  ['icon', { kucoin: ['icx'] }],
  ['komodo', { kucoin: ['kmd'] }],
  ['elastos', { kucoin: ['ela'] }],
  ['hydra', { kucoin: ['hydra'] }],
  ['neblio', { kucoin: ['nebl'] }],
  ['horizen', { kucoin: ['zen'] }],
  ['shiden', { kucoin: ['sdn'] }],
  ['lto', { kucoin: ['lto'] }],
  ['everscale', { kucoin: ['ever'] }],
  ['bifrost', { kucoin: ['bnc'] }],
  ['bifrost-polkadot', { kucoin: ['bncdot'] }],
  ['aion', { kucoin: ['aion'] }],
  ['grin', { kucoin: ['grin'] }],
  ['oxen', { kucoin: ['loki'] }],
  ['quarkchain', { kucoin: ['qkc'] }],
  ['pivx', { kucoin: ['pivx'] }],
  ['sero', { kucoin: ['sero'] }],
  ['meter', { kucoin: ['meter'] }],
  ['kusama-asset-hub', { kucoin: ['statemine'], gate: ['KSMSM'] }],
  ['sentinel', { kucoin: ['dvpn'] }],
  ['persistence', { kucoin: ['xprt'] }],
  ['ergo', { kucoin: ['ergo'] }],
  ['divi', { kucoin: ['divi'] }],
  ['pura', { kucoin: ['pura'] }],
  ['defichain', { kucoin: ['dfi'] }],
  ['neo3', { kucoin: ['neon3'] }],
  ['dock', { kucoin: ['dock'] }],
  ['truechain', { kucoin: ['true'] }],
  ['credits', { kucoin: ['cs'] }],
  ['oraichain', { kucoin: ['orai'] }],
  ['taraxa', { kucoin: ['tara'] }],
  ['taiko', { gate: ['TAIKOETH'] }],
  ['hyperliquid', { gate: ['HYPE'] }],
  ['blast', { gate: ['BLASTETH'] }],
  ['mantle', { gate: ['MNT'], bybit: ['MANTLE'] }],
  ['aurora', { gate: ['AURORAEVM'] }],
  ['konet', { gate: ['KONET'] }],
  ['gatechain-evm', { gate: ['GTEVM'] }],
  ['vaulta', { okxChain: ['Vaulta'] }],
  ['canton', { okxChain: ['Canton Network'] }],
  ['babylon', { okxChain: ['Babylon'] }],
  ['core', { okxChain: ['CORE'] }],
  ['hyperevm', { bybit: ['HYPEREVM'], okxChain: ['HyperEVM'] }],
  ['pi', { okxChain: ['PI'] }],
  ['zetachain', { okxChain: ['ZetaChain'] }],
  ['quantum', { okxChain: ['Quantum'] }],
  ['pharos', { okxChain: ['Pharos'] }],
  ['ronin', { okxChain: ['Ronin'] }],
  ['megaeth', { okxChain: ['MegaETH'] }],
  ['fogo', { okxChain: ['Fogo'] }],
  ['aelf', { okxChain: ['AELF'] }],
  ['tempo', { okxChain: ['Tempo'] }],
  ['monad', { bybit: ['MONAD'], okxChain: ['Monad'] }],
  ['plasma', { okxChain: ['Plasma'] }],
  ['step', { bybit: ['FITFI'] }],
  ['zksync-lite', { bybit: ['ZKSYNC'], okxChain: ['zkSync Lite'] }],
  ['humanity', { bybit: ['HUMANITY'] }],
  ['x-layer', { okxChain: ['X Layer'] }],
  ['gatechain', { gate: ['GT'] }],
];

/**
 * Network ids of the recorded answers (test/exchange/dialects/<name>/fixtures and
 * test/simulator/dialects/fixtures) that are deliberately left without a chain, each with why:
 * a test walks every id of every recorded answer and requires it to name a chain or be listed
 * here. Empty today: every recorded id names one.
 */
export const DELIBERATELY_UNKNOWN: readonly { readonly dialect: ChainDialect; readonly id: string; readonly reason: string }[] = [];

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
      for (const name of ids.okxChain ?? []) setOnce(this.okxChains, name, chain, 'okx');
    }
    for (const [chain, ids] of [...CHAIN_TABLE, ...SPOT_V3_EXTRA]) {
      // OKX chain names alone are never sent as an id (OKX sends `<ccy>-<name>`): not spot-v3 spellings.
      for (const d of CHAIN_DIALECTS) {
        for (const id of ids[d] ?? []) {
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
