import { dialects } from '../../../src/exchange/dialects/registry';
import { renderNetworks } from '../../../src/metrics/render';
import { rendererOf } from '../../../src/simulator/dialects/registry';
import { createMarket } from '../../../src/simulator/market/create-market';
import { touchCoin, type Market } from '../../../src/simulator/market/model';
import { diff } from '../../../src/snapshot/diff';
import { dropTronFlag, UNKNOWN_FLAG_CASES as CASES } from './raw-networks';
import { applyCoins } from '../../../src/snapshot/merge';
import { emptySnapshot, type Snapshot } from '../../../src/snapshot/model';

/**
 * Unknown is never closed, per network, in every dialect (dialects.md rule 1 "without
 * guessing", snapshot/fields.ts): a network whose withdraw flag the answer leaves out keeps its
 * last known value (no change, no alert, metrics show it open) while the coin's other networks
 * update; the next known value is compared with the last known one. The answers are the
 * reference exchange's renderings (from each exchange's docs), the flag then removed as an
 * exchange would leave it out.
 */

function setNetwork(market: Market, network: string, set: { depositEnable?: boolean; withdrawEnable?: boolean }): void {
  const coin = market.coins.get('USDT');
  const n = coin?.networks.find((x) => x.network === network);
  if (coin === undefined || n === undefined) throw new Error(`no USDT ${network}`);
  Object.assign(n, set);
  touchCoin(market, coin);
}

describe.each(CASES)('$dialect: a network whose withdraw flag is not sent', (c) => {
  const dialect = dialects.named(c.dialect);
  const renderer = rendererOf(c.dialect);
  let at = 1_700_000_000_000;

  /** The answer to the coins request for the market now, `edit` applied to its raw body. */
  async function poll(prev: Snapshot, market: Market, edit: (body: unknown) => void = () => undefined): Promise<Snapshot> {
    const answer = renderer?.coins([...market.coins.values()], at);
    const body: unknown = answer?.raw === true ? JSON.parse(answer.body as string) : structuredClone(answer?.body);
    edit(body);
    at += 1_000;
    return applyCoins(prev, dialect.decode.coins(JSON.stringify(body), prev.coins), at);
  }
  const dropFlag = (body: unknown): void => dropTronFlag(c, body);
  const tron = (s: Snapshot) => s.coins.get('USDT')?.networkList.find((n) => n.network === c.tron);
  const kinds = (changes: ReturnType<typeof diff>) => changes.map((x) => `${x.kind} ${x.network ?? x.coin ?? ''}`);

  it('true -> unknown -> false: no change while unknown (the other networks update), then closed once', async () => {
    const market = createMarket({ seed: 3, coins: 20 });
    const s1 = await poll(emptySnapshot(c.dialect), market);
    expect(tron(s1)?.withdrawEnable).toBe(true);

    // Unknown, while another network of the coin closes its deposits: that one is told, the unknown one is not.
    setNetwork(market, 'Ethereum(ERC20)', { depositEnable: false });
    const s2 = await poll(s1, market, dropFlag);
    expect(kinds(diff(s1, s2))).toEqual(['deposit_all_disabled USDT', `deposit_disabled ${c.erc20}`]);
    expect(tron(s2)).toBe(tron(s1));
    const metrics = renderNetworks(s2, () => true);
    expect(metrics.spotwatch_network_withdraw_enabled).toContain(`spotwatch_network_withdraw_enabled{exchange="${c.dialect}",coin="USDT",network="${c.tron}"} 1\n`);

    setNetwork(market, 'Tron(TRC20)', { withdrawEnable: false });
    const s3 = await poll(s2, market);
    expect(kinds(diff(s2, s3))).toEqual(['withdraw_all_disabled USDT', `withdraw_disabled ${c.tron}`]);
  });

  it('counts the unknown network at its last known value in the coin\'s flags', async () => {
    const market = createMarket({ seed: 3, coins: 20 });
    setNetwork(market, 'Ethereum(ERC20)', { withdrawEnable: false });
    const s1 = await poll(emptySnapshot(c.dialect), market);
    expect(s1.coins.get('USDT')?.withdrawAllEnable).toBe(false);
    // Ethereum reopens while Tron's flag is not sent: Tron was open, so every network is.
    setNetwork(market, 'Ethereum(ERC20)', { withdrawEnable: true });
    const s2 = await poll(s1, market, dropFlag);
    expect(kinds(diff(s1, s2))).toEqual(['withdraw_all_enabled USDT', `withdraw_enabled ${c.erc20}`]);
  });

  it('true -> unknown -> true: never a change', async () => {
    const market = createMarket({ seed: 3, coins: 20 });
    const s1 = await poll(emptySnapshot(c.dialect), market);
    const s2 = await poll(s1, market, dropFlag);
    const s3 = await poll(s2, market);
    expect([kinds(diff(s1, s2)), kinds(diff(s2, s3))]).toEqual([[], []]);
    expect(tron(s3)?.withdrawEnable).toBe(true);
  });
});
