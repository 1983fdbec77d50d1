import { createMarket } from '../../src/simulator/market/create-market';
import { rendererOf } from '../../src/simulator/dialects/registry';
import type { SimulatorDialect } from '../../src/simulator/dialects/names';
import { CHAIN_TABLE, ChainTable, type ChainDialect } from '../../src/snapshot/chains';

/**
 * The chain table against what the reference exchange emits in each dialect (its network ids
 * come from the exchanges' docs and recorded answers, not from chains.ts): every network whose
 * chain dialects.md lists for that dialect maps to that chain, and no network maps to another
 * chain. The chain a model network is on is its spot-v3 id's (`Tron(TRC20)` -> tron).
 */

const SHIPPED_CHAINS = new ChainTable();

type Raw = Record<string, unknown>;
const list = (v: unknown): Raw[] => (Array.isArray(v) ? (v as Raw[]) : []);
const data = (body: unknown): Raw[] => list((body as Raw).data);

/** The network ids of a rendered coins answer, per coin, in the model's order of its networks. */
const IDS: Record<ChainDialect, (body: unknown) => Map<string, string[]>> = {
  binance: (b) => new Map(list(b).map((c) => [String(c.coin), list(c.networkList).map((n) => String(n.network))])),
  mexc: (b) => new Map(list(b).map((c) => [String(c.coin), list(c.networkList).map((n) => String(n.netWork ?? n.network))])),
  bitget: (b) => new Map(data(b).map((c) => [String(c.coin), list(c.chains).map((n) => String(n.chain))])),
  kucoin: (b) => new Map(data(b).map((c) => [String(c.currency), list(c.chains).map((n) => String(n.chainId))])),
  gate: (b) => new Map(list(b).map((c) => [String(c.currency), list(c.chains).map((n) => String(n.name))])),
  htx: (b) => new Map(data(b).map((c) => [String(c.currency).toUpperCase(), list(c.chains).map((n) => String(n.chain))])),
  okx: (b) => {
    const out = new Map<string, string[]>();
    for (const r of data(b)) out.set(String(r.ccy), [...(out.get(String(r.ccy)) ?? []), String(r.chain)]);
    return out;
  },
  bybit: (b) => new Map(list(((b as Raw).result as Raw).rows).map((c) => [String(c.coin), list(c.chains).map((n) => String(n.chain))])),
};

/** The chains dialects.md lists for a dialect (a `—` there: not listed). */
function listed(dialect: ChainDialect): Set<string> {
  return new Set(CHAIN_TABLE.filter(([, ids]) => (ids[dialect] ?? []).length > 0).map(([chain]) => chain));
}

describe.each(Object.keys(IDS) as ChainDialect[])('the chains of the networks the reference exchange emits speaking %s', (dialect) => {
  const market = createMarket({ seed: 7, coins: 400 });
  const coins = [...market.coins.values()];
  const answer = rendererOf(dialect as SimulatorDialect)?.coins(coins, 1_700_000_000_000);
  const ids = IDS[dialect](answer?.raw === true ? JSON.parse(answer.body as string) : answer?.body);
  const rows = coins.flatMap((c) => c.networks.map((n, i) => ({ coin: c.coin, model: n.network, id: ids.get(c.coin)?.[i] ?? '(missing)', chain: SHIPPED_CHAINS.chainOf('spot-v3', n.network) })));

  it('emits one id per network of the model', () => {
    expect(rows.filter((r) => r.id === '(missing)')).toEqual([]);
  });

  it('maps each to its chain where dialects.md lists the chain for this dialect, and never to another chain', () => {
    const chains = listed(dialect);
    // HTX's ids are per coin (`trc20usdt`, `trc20btc`): only the ones the table lists are known.
    const known = (r: (typeof rows)[number]) => r.chain !== null && chains.has(r.chain) && (dialect !== 'htx' || CHAIN_TABLE.some(([, c]) => c.htx?.includes(r.id)));
    const wrong = rows
      .filter((r) => (known(r) ? SHIPPED_CHAINS.chainOf(dialect, r.id) !== r.chain : ![null, r.chain].includes(SHIPPED_CHAINS.chainOf(dialect, r.id))))
      .map((r) => `${r.coin} ${r.model} -> ${r.id}: ${String(SHIPPED_CHAINS.chainOf(dialect, r.id))}, want ${String(r.chain)}`);
    expect([...new Set(wrong)]).toEqual([]);
  });
});
