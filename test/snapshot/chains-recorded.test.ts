import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dialects } from '../../src/exchange/dialects/registry';
import { ChainTable, DELIBERATELY_UNKNOWN, type ChainDialect } from '../../src/snapshot/chains';

/**
 * Every network id in the exchanges' recorded answers, read by the dialect's own decoder, names a
 * canonical chain or is on chains.ts's DELIBERATELY_UNKNOWN list with its reason (dialects.md
 * section 3, issues 23 and 29). The answers are every file of test/exchange/dialects/<name>/fixtures
 * that decodes as a coins answer, and the coin record of test/simulator/dialects/fixtures/<name>.json
 * in that dialect's envelope. MEXC's are read twice: older MEXC answers send only `network`
 * (`Tron(TRC20)`, `OMNI`), newer ones `netWork` too, which the decoder prefers.
 */

const SHIPPED_CHAINS = new ChainTable();
const DIALECTS: readonly ChainDialect[] = ['binance', 'mexc', 'bitget', 'kucoin', 'gate', 'htx', 'okx', 'bybit'];

type Raw = Record<string, unknown>;

/** One recorded coin record (test/simulator/dialects/fixtures) as the whole answer its exchange sends. */
const ENVELOPE: Record<ChainDialect, (coin: unknown) => unknown> = {
  binance: (c) => [c],
  mexc: (c) => [c],
  bitget: (c) => ({ code: '00000', msg: 'success', requestTime: 1, data: [c] }),
  kucoin: (c) => ({ code: '200000', data: [c] }),
  gate: (c) => [c],
  htx: (c) => ({ code: 200, data: [c] }),
  okx: (c) => ({ code: '0', msg: '', data: [c] }),
  bybit: (c) => ({ retCode: 0, retMsg: 'success', result: { rows: [c] }, retExtInfo: {}, time: 1 }),
};

/** The recorded coins answers of a dialect, as [where, text]. */
function recordedAnswers(dialect: ChainDialect): [string, string][] {
  const dir = join(__dirname, '..', 'exchange', 'dialects', dialect, 'fixtures');
  const files: [string, string][] = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [`${dialect}/fixtures/${f}`, readFileSync(join(dir, f), 'utf8')]);
  const sim = JSON.parse(readFileSync(join(__dirname, '..', 'simulator', 'dialects', 'fixtures', `${dialect}.json`), 'utf8')) as Raw;
  files.push([`simulator/${dialect}.json`, JSON.stringify(ENVELOPE[dialect](sim.coin))]);
  if (dialect !== 'mexc') return files;
  // Older MEXC answers: `network` alone.
  return files.flatMap(([where, text]) => [[where, text], [`${where} (network alone)`, text.replace(/"netWork"\s*:\s*"[^"]*"\s*,?/g, '').replace(/,(\s*})/g, '$1')]]);
}

/** Every network id of every recorded coins answer of a dialect (files that are no coins answer, tickers, are skipped). */
function networkIds(dialect: ChainDialect): string[] {
  const decode = dialects.named(dialect).decode;
  const ids = recordedAnswers(dialect).flatMap(([, text]) => {
    let records;
    try {
      records = decode.coins(text).records;
    } catch {
      return [];
    }
    return records.flatMap((c) => c.networkList.map((n) => n.network));
  });
  return [...new Set(ids)].sort();
}

describe('the network ids of the recorded answers', () => {
  test.each([
    // dialect, the ids its recorded answers send, and their chains in that order
    ['binance', ['BSC', 'ETH'], ['bsc', 'ethereum']],
    ['mexc', ['BNB Smart Chain(BEP20)', 'BSC', 'BTC', 'Bitcoin(BTC)', 'TONCOIN', 'TRX', 'Toncoin(TON)', 'Tron(TRC20)'], ['bsc', 'bsc', 'bitcoin', 'bitcoin', 'ton', 'tron', 'ton', 'tron']],
    ['bitget', ['BTC', 'TRC20'], ['bitcoin', 'tron']],
    ['kucoin', ['bech32', 'btc', 'btcln', 'kcc', 'trx'], ['bitcoin', 'bitcoin', 'bitcoin-lightning', 'kcc', 'tron']],
    ['gate', ['ETH', 'GT', 'GTEVM'], ['ethereum', 'gatechain', 'gatechain-evm']],
    ['htx', ['algousdt', 'aptusdt', 'arc20usdt', 'celousdt', 'nearusdt', 'optusdt', 'polyusdt', 'trc20btc'], ['algorand', 'aptos', 'arbitrum', 'celo', 'near', 'optimism', 'polygon', 'tron']],
    ['okx', ['BTC-Bitcoin', 'BTC-Lightning', 'BTCK-OKTC', 'USDT-ERC20', 'USDT-TRC20'], ['bitcoin', 'bitcoin-lightning', 'okt-chain', 'ethereum', 'tron']],
    ['bybit', ['ARBI', 'CAVAX', 'TRX', 'ZKSYNC'], ['arbitrum', 'avalanche-c', 'tron', 'zksync-lite']],
  ] as const)('%s: %j', (dialect, ids, chains) => {
    expect(networkIds(dialect)).toEqual(ids);
    expect(ids.map((id) => SHIPPED_CHAINS.chainOf(dialect, id))).toEqual(chains);
  });

  test('each names a chain or is deliberately unknown, with its reason', () => {
    const unknown = DIALECTS.flatMap((d) => networkIds(d).filter((id) => SHIPPED_CHAINS.chainOf(d, id) === null).map((id) => `${d} ${id}`));
    // Exactly the listed ones (none today): an id that resolves, or that no recording sends, leaves the list too.
    expect(unknown).toEqual(DELIBERATELY_UNKNOWN.map((u) => `${u.dialect} ${u.id}`));
    expect(DELIBERATELY_UNKNOWN.filter((u) => u.reason.trim() === '')).toEqual([]);
  });
});

describe('the ids issue 29 found read as unknown', () => {
  test.each([
    // MEXC's older `network` for USDT on the Omni Layer (contract "31", USDT's Omni property id)
    ['mexc', 'OMNI', 'omni'],
    // HTX's per-coin ids of USDT (ccxt's recorded /v2/reference/currencies)
    ['htx', 'algousdt', 'algorand'],
    ['htx', 'celousdt', 'celo'],
    ['htx', 'nearusdt', 'near'],
    ['htx', 'polyusdt', 'polygon'],
    // Gate's Statemine and Statemint: the Asset Hubs (USDT is asset 1984 there), not the relay chains
    ['gate', 'KSMSM', 'kusama-asset-hub'],
    ['gate', 'DOTSM', 'polkadot-asset-hub'],
    ['gate', 'DOT', 'polkadot'],
  ] as const)('%s %j -> %s', (dialect, id, chain) => {
    expect(SHIPPED_CHAINS.chainOf(dialect, id)).toBe(chain);
  });
});
