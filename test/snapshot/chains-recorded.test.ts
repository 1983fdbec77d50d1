import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dialects } from '../../src/exchange/dialects/registry';
import { ChainTable, type ChainDialect } from '../../src/snapshot/chains';

/**
 * Every network id in the exchanges' recorded answers (test/exchange/dialects/<name>/fixtures),
 * read by the dialect's own decoder, names a canonical chain (dialects.md section 3, issue 23).
 */

const SHIPPED_CHAINS = new ChainTable();

/** Each dialect's recorded coin lists. */
const RECORDED: Record<ChainDialect, readonly string[]> = {
  binance: ['getall.json'],
  mexc: ['getall.json'],
  bitget: ['coins.json', 'coins-recorded.json'],
  kucoin: ['currencies.json'],
  gate: ['currencies.json'],
  htx: ['currencies.json'],
  okx: ['currencies.json'],
  bybit: ['coin-query-info.json'],
};

function networkIds(dialect: ChainDialect): string[] {
  const decode = dialects.named(dialect).decode;
  const ids = RECORDED[dialect].flatMap((file) => {
    const text = readFileSync(join(__dirname, '..', 'exchange', 'dialects', dialect, 'fixtures', file), 'utf8');
    return decode.coins(text).records.flatMap((c) => c.networkList.map((n) => n.network));
  });
  return [...new Set(ids)].sort();
}

describe('the network ids of the recorded answers', () => {
  test.each([
    // dialect, the ids its recorded answers send, and their chains in that order
    ['binance', ['BSC', 'ETH'], ['bsc', 'ethereum']],
    ['mexc', ['BSC', 'BTC', 'TONCOIN', 'TRX'], ['bsc', 'bitcoin', 'ton', 'tron']],
    ['bitget', ['BTC'], ['bitcoin']],
    ['kucoin', ['bech32', 'btc', 'btcln', 'kcc'], ['bitcoin', 'bitcoin', 'bitcoin-lightning', 'kcc']],
    ['gate', ['ETH', 'GT', 'GTEVM'], ['ethereum', 'gatechain', 'gatechain-evm']],
    ['htx', ['aptusdt', 'arc20usdt', 'optusdt'], ['aptos', 'arbitrum', 'optimism']],
    ['okx', ['BTC-Bitcoin', 'BTC-Lightning', 'BTCK-OKTC', 'USDT-ERC20', 'USDT-TRC20'], ['bitcoin', 'bitcoin-lightning', 'okt-chain', 'ethereum', 'tron']],
    ['bybit', ['ARBI', 'CAVAX', 'TRX', 'ZKSYNC'], ['arbitrum', 'avalanche-c', 'tron', 'zksync-lite']],
  ] as const)('%s: %j', (dialect, ids, chains) => {
    expect(networkIds(dialect)).toEqual(ids);
    expect(ids.map((id) => SHIPPED_CHAINS.chainOf(dialect, id))).toEqual(chains);
  });

  test('none is unknown', () => {
    const unknown = (Object.keys(RECORDED) as ChainDialect[]).flatMap((d) => networkIds(d).filter((id) => SHIPPED_CHAINS.chainOf(d, id) === null).map((id) => `${d} ${id}`));
    expect(unknown).toEqual([]);
  });
});
