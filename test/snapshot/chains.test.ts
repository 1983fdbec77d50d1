import { CHAIN_NAME } from '../../src/lib/chain-name';
import { CHAIN_TABLE, ChainTable } from '../../src/snapshot/chains';

/** The shipped table, without config aliases. */
const SHIPPED_CHAINS = new ChainTable();

describe('canonical chains (dialects.md section 3)', () => {
  test.each([
    // dialect, network id, chain
    ['binance', 'TRX', 'tron'],
    ['binance', 'SEGWITBTC', 'bitcoin'],
    ['binance', 'ETH', 'ethereum'],
    ['binance', 'BSC', 'bsc'],
    ['mexc', 'Tron(TRC20)', 'tron'],
    ['mexc', 'TRX', 'tron'],
    ['mexc', 'BNB Smart Chain(BEP20)', 'bsc'],
    ['bitget', 'TRC20', 'tron'],
    ['bitget', 'ERC20', 'ethereum'],
    ['bitget', 'BEP20', 'bsc'],
    ['bitget', 'C-Chain', 'avalanche-c'],
    ['kucoin', 'trx', 'tron'],
    ['kucoin', 'bech32', 'bitcoin'],
    ['gate', 'HT', 'heco'],
    ['gate', 'ARBEVM', 'arbitrum'],
    ['htx', 'trc20usdt', 'tron'],
    ['htx', 'hbtc', 'ethereum'],
    ['okx', 'USDT-TRC20', 'tron'],
    ['okx', 'ETH-Arbitrum One', 'arbitrum'],
    ['okx', 'BTC-Bitcoin', 'bitcoin'],
    ['okx', 'BTC-Lightning', 'bitcoin-lightning'],
    ['okx', 'ETH-Base', 'base'],
    // OKX ids are `<ccy>-<chain name>`: another coin on a listed chain name is on that chain
    ['okx', 'LINK-ERC20', 'ethereum'],
    ['okx', 'TRX-TRC20', 'tron'],
    ['okx', 'AVAX-Avalanche C-Chain', 'avalanche-c'],
    ['okx', 'USDC-Base', 'base'],
    ['okx', 'ERC20', null],
    ['okx', 'USDT-Unknown', null],
    ['binance', 'LIGHTNING', 'bitcoin-lightning'],
    ['binance', 'BASE', 'base'],
    ['bitget', 'LIGHTNING', 'bitcoin-lightning'],
    ['gate', 'BASEEVM', 'base'],
    // HTX ids are per coin: only those the table lists
    ['htx', 'trc20btc', 'tron'],
    ['htx', 'trc20link', null],
    ['bybit', 'ARBI', 'arbitrum'],
    ['bybit', 'CAVAX', 'avalanche-c'],
    // spot-v3 has no column: every column's ids and common spellings, exact then trimmed and lower-cased
    ['spot-v3', 'Tron(TRC20)', 'tron'],
    ['spot-v3', 'TRC20', 'tron'],
    ['spot-v3', 'TRX', 'tron'],
    ['spot-v3', 'TRON', 'tron'],
    ['spot-v3', ' tron ', 'tron'],
    ['spot-v3', 'ERC20', 'ethereum'],
    ['spot-v3', 'Ethereum(ERC20)', 'ethereum'],
    ['spot-v3', 'BEP20', 'bsc'],
    ['spot-v3', 'BNB Smart Chain(BEP20)', 'bsc'],
    ['spot-v3', 'Polygon(POS)', 'polygon'],
    ['spot-v3', 'AVAXC', 'avalanche-c'],
    ['spot-v3', 'eth', 'ethereum'],
    // Beyond the first fifteen (issue 23): ids from the recorded answers and ccxt's per-exchange tables
    ['okx', 'BTCK-OKTC', 'okt-chain'],
    ['okx', 'USDT-X Layer', 'x-layer'],
    ['okx', 'ETH-zkSync Lite', 'zksync-lite'],
    ['okx', 'USDT-Omni', 'omni'],
    ['okx', 'ALGO-Algorand', 'algorand'],
    ['okx', 'ETH-zkSync Era', 'zksync-era'],
    ['gate', 'OKT', 'okt-chain'],
    ['gate', 'GT', 'gatechain'],
    ['gate', 'GTEVM', 'gatechain-evm'],
    ['gate', 'KSMSM', 'kusama-asset-hub'],
    ['mexc', 'OKT', 'okt-chain'],
    ['mexc', 'BTC', 'bitcoin'],
    ['mexc', 'Toncoin(TON)', 'ton'],
    ['kucoin', 'kcc', 'kcc'],
    ['kucoin', 'btcln', 'bitcoin-lightning'],
    ['kucoin', 'algo', 'algorand'],
    ['bybit', 'ZKSYNC', 'zksync-lite'],
    ['bybit', 'ZKV2', 'zksync-era'],
    ['bybit', 'ALGO', 'algorand'],
    ['bitget', 'OMNI', 'omni'],
    ['bitget', 'zkSyncEra', 'zksync-era'],
    ['binance', 'ALGO', 'algorand'],
    ['binance', 'BNB', 'bnb-beacon'],
    ['htx', 'aptusdt', 'aptos'],
    ['spot-v3', 'KSMSM', 'kusama-asset-hub'],
    ['spot-v3', 'ZKSYNC', 'zksync-lite'],
  ])('%s %j -> %s', (dialect, id, chain) => {
    expect(SHIPPED_CHAINS.chainOf(dialect, id)).toBe(chain);
  });

  test.each([
    // A dialect's column is exact and case-sensitive: anything else is unknown (null), never guessed.
    ['binance', 'trx'],
    ['binance', 'TRC20'],
    ['binance', ' TRX'],
    ['kucoin', 'TRX'],
    ['okx', 'TRC20'],
    ['bybit', 'KSMSM'],
    ['spot-v3', 'QUAI'],
    // OKX sends `<ccy>-<name>`: a chain name alone is no OKX id, nor a spot-v3 spelling
    ['okx', 'Algorand'],
    ['spot-v3', 'X Layer'],
    // HTX's ids are per coin; ccxt's htx values are its `baseChain`, not ids
    ['htx', 'ALGO'],
    ['spot-v3', ''],
    ['a-dialect-of-a-test', 'TRX'],
  ])('%s %j -> null (unknown)', (dialect, id) => {
    expect(SHIPPED_CHAINS.chainOf(dialect, id)).toBeNull();
  });

  test('config aliases come first, for every dialect, exactly', () => {
    const table = new ChainTable({ QUAI: 'quai', TRX: 'tron-legacy' });
    expect(table.chainOf('gate', 'QUAI')).toBe('quai');
    expect(table.chainOf('spot-v3', 'QUAI')).toBe('quai');
    expect(table.chainOf('spot-v3', 'quai')).toBeNull();
    expect(table.chainOf('binance', 'TRX')).toBe('tron-legacy');
    expect(table.chainOf('binance', 'BSC')).toBe('bsc');
    expect(table.chainOf('bitget', 'TRC20')).toBe('tron');
  });

  test('every chain name is a valid chain name', () => {
    for (const [chain] of CHAIN_TABLE) expect(chain).toMatch(CHAIN_NAME);
    expect('Tron').not.toMatch(CHAIN_NAME);
    expect('avalanche-c').toMatch(CHAIN_NAME);
  });
});
