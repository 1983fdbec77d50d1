import type { ExchangeClient } from '../../src/exchange/client';
import { parseJsonKeepingDecimals } from '../../src/exchange/dialects/spot-v3/decode';
import { silentLogger } from '../../src/lib/logger';
import { diff } from '../../src/snapshot/diff';
import { applyCoins, applyTickers } from '../../src/snapshot/merge';
import { emptySnapshot, type Snapshot } from '../../src/snapshot/model';
import { editJson, ExchangeDouble, type DoubleAnswer } from '../support/exchange-double';
import { startTestSimulator, type TestSimulator } from '../support/simulator';
import { testClient } from './test-client';

/**
 * An answer that carries one record twice, through the real client over HTTP. Copies that
 * disagree keep the previous value (never a change); identical copies are one record.
 */

jest.setTimeout(30_000);

type Json = Record<string, unknown>;

let sim: TestSimulator;
let double: ExchangeDouble;
let client: ExchangeClient;

beforeAll(async () => {
  sim = await startTestSimulator({ coins: 20, seed: 3, logger: silentLogger(), weightLimit: { max: 100_000, windowMs: 10_000 } });
  double = await new ExchangeDouble(sim.url).start();
  client = testClient(double.url);
});
afterAll(async () => {
  await client.close();
  await double.stop();
  await sim.close();
});
afterEach(() => {
  double.respond = (_path, upstream) => upstream();
});

/** Every answer of that endpoint edited by `edit`. */
function editing(endpoint: 'coins' | 'tickers', edit: (body: Json[]) => unknown): void {
  double.respond = async (path, upstream): Promise<DoubleAnswer> => {
    const answer = await upstream();
    const ours = endpoint === 'coins' ? path.startsWith('/api/v3/coins') : path.startsWith('/api/v3/market/ticker');
    return ours ? editJson(answer, (body) => edit(body as Json[])) : answer;
  };
}

async function pollCoins(prev: Snapshot, at: number): Promise<{ next: Snapshot; issues: unknown[] }> {
  const answer = await client.fetchCoins(undefined, prev.coins);
  return { next: applyCoins(prev, answer, at), issues: [...answer.issues] };
}

async function pollTickers(prev: Snapshot, at: number): Promise<{ next: Snapshot; issues: unknown[] }> {
  const answer = await client.fetchTickers([], undefined, prev.tickers);
  return { next: applyTickers(prev, answer, at), issues: [...answer.issues] };
}

/** A coin with at least two networks, all open, and its first network. */
function openCoin(body: Json[]): { coin: Json; network: Json } {
  const coin = body.find((c) => {
    const list = c.networkList as Json[];
    return list.length >= 2 && list.every((n) => n.depositEnable === true && n.withdrawEnable === true);
  });
  if (coin === undefined) throw new Error('no coin with two open networks in this market');
  return { coin, network: (coin.networkList as Json[])[0] as Json };
}

async function baseline(): Promise<Snapshot> {
  return (await pollCoins(emptySnapshot('main'), 1)).next;
}

describe('a network twice in one answer', () => {
  it('copies that disagree (the first closed) keep the previous value: no change, one issue; none when the copy goes', async () => {
    const prev = await baseline();
    let target: { coin: string; network: string } | undefined;
    editing('coins', (body) => {
      const { coin, network } = openCoin(body);
      target = { coin: coin.coin as string, network: network.network as string };
      (coin.networkList as Json[]).unshift({ ...network, withdrawEnable: false, withdrawDesc: 'closed copy' });
    });
    const dup = await pollCoins(prev, 2);
    expect(target).toBeDefined();
    const { coin, network } = target as { coin: string; network: string };
    expect(dup.issues).toEqual([{ entity: 'network', coin, network, index: 1, reason: 'network appears twice in networkList with different values' }]);
    expect(diff(prev, dup.next)).toEqual([]);
    const kept = dup.next.coins.get(coin)?.networkList.find((n) => n.network === network);
    expect(kept).toEqual(prev.coins.get(coin)?.networkList.find((n) => n.network === network));
    expect(kept?.withdrawEnable).toBe(true);

    double.respond = (_path, upstream) => upstream();
    const after = await pollCoins(dup.next, 3);
    expect(after.issues).toEqual([]);
    expect(diff(dup.next, after.next)).toEqual([]);
  });

  it('on the first snapshot, copies that disagree leave the network out as unknown, never closed', async () => {
    let target: { coin: string; network: string } | undefined;
    editing('coins', (body) => {
      const { coin, network } = openCoin(body);
      target = { coin: coin.coin as string, network: network.network as string };
      (coin.networkList as Json[]).push({ ...network, withdrawEnable: false });
    });
    const first = await pollCoins(emptySnapshot('main'), 1);
    const { coin, network } = target as { coin: string; network: string };
    const networks = first.next.coins.get(coin)?.networkList ?? [];
    expect(networks.some((n) => n.network === network)).toBe(false);
    expect(networks.every((n) => n.withdrawEnable)).toBe(true);
    expect(first.issues).toHaveLength(1);
    // When the copy goes, the network is known at last: not a `network_added`.
    double.respond = (_path, upstream) => upstream();
    const next = await pollCoins(first.next, 2);
    expect(next.next.coins.get(coin)?.networkList.some((n) => n.network === network)).toBe(true);
    expect(diff(first.next, next.next)).toEqual([]);
  });

  it('identical copies are one record, without an issue', async () => {
    const prev = await baseline();
    let target = '';
    editing('coins', (body) => {
      const { coin, network } = openCoin(body);
      target = coin.coin as string;
      (coin.networkList as Json[]).push({ ...network });
    });
    const dup = await pollCoins(prev, 2);
    expect(dup.issues).toEqual([]);
    expect(diff(prev, dup.next)).toEqual([]);
    expect(dup.next.coins.get(target)).toBe(prev.coins.get(target));
  });

  it('a malformed copy beside a good one is as ambiguous: the previous value is kept', async () => {
    const prev = await baseline();
    let target: { coin: string; network: string } | undefined;
    editing('coins', (body) => {
      const { coin, network } = openCoin(body);
      target = { coin: coin.coin as string, network: network.network as string };
      // The good copy first, closed; the second copy broken.
      (coin.networkList as Json[]).splice(0, 1, { ...network, withdrawEnable: false }, { ...network, depositEnable: 'maybe' });
    });
    const dup = await pollCoins(prev, 2);
    const { coin, network } = target as { coin: string; network: string };
    expect(dup.issues).toEqual([{ entity: 'network', coin, network, index: 1, reason: 'depositEnable is not a boolean' }]);
    expect(diff(prev, dup.next)).toEqual([]);
  });
});

describe('a coin twice in one answer', () => {
  it('copies that disagree (the first with everything closed) keep the previous coin: no change', async () => {
    const prev = await baseline();
    let target = '';
    editing('coins', (body) => {
      const { coin } = openCoin(body);
      target = coin.coin as string;
      const closed = { ...coin, withdrawAllEnable: false, networkList: (coin.networkList as Json[]).map((n) => ({ ...n, withdrawEnable: false })) };
      body.unshift(closed);
    });
    const dup = await pollCoins(prev, 2);
    expect(dup.issues).toEqual([{ entity: 'coin', coin: target, index: expect.any(Number), reason: 'coin appears twice in the list with different values' }]);
    expect(diff(prev, dup.next)).toEqual([]);
    expect(dup.next.coins.get(target)).toBe(prev.coins.get(target));

    double.respond = (_path, upstream) => upstream();
    const after = await pollCoins(dup.next, 3);
    expect(diff(dup.next, after.next)).toEqual([]);
  });

  it('identical copies are one coin', async () => {
    const prev = await baseline();
    editing('coins', (body) => [...body, ...body.map((c) => structuredClone(c))]);
    const dup = await pollCoins(prev, 2);
    expect(dup.issues).toEqual([]);
    expect([...dup.next.coins.keys()]).toEqual([...prev.coins.keys()]);
    expect(diff(prev, dup.next)).toEqual([]);
  });
});

describe('a ticker twice in one answer', () => {
  it('copies that disagree keep the previous ticker; identical copies are one', async () => {
    const prev = (await pollTickers(emptySnapshot('main'), 1)).next;
    const symbol = [...prev.tickers.keys()][0] as string;
    editing('tickers', (body) => {
      const t = body.find((x) => x.symbol === symbol) as Json;
      body.unshift({ ...t, lastPrice: '0.00000001' });
    });
    const dup = await pollTickers(prev, 2);
    expect(dup.issues).toEqual([{ entity: 'ticker', symbol, index: expect.any(Number), reason: 'symbol appears twice in the list with different values' }]);
    expect(diff(prev, dup.next)).toEqual([]);
    expect(dup.next.tickers.get(symbol)).toBe(prev.tickers.get(symbol));

    editing('tickers', (body) => [...body, ...body.map((x) => ({ ...x }))]);
    const same = await pollTickers(prev, 3);
    expect(same.issues).toEqual([]);
    expect([...same.next.tickers.keys()]).toEqual([...prev.tickers.keys()]);
  });
});

describe('a decimal too large for a number', () => {
  it.each(['1e400', '-1e400', '1E+999'])('lastPrice %s is a schema error of that ticker, which keeps its previous value', async (value) => {
    const prev = (await pollTickers(emptySnapshot('main'), 1)).next;
    const symbol = [...prev.tickers.keys()][1] as string;
    editing('tickers', (body) => {
      (body.find((x) => x.symbol === symbol) as Json).lastPrice = value;
    });
    const next = await pollTickers(prev, 2);
    expect(next.issues).toEqual([{ entity: 'ticker', symbol, index: 1, reason: 'lastPrice is not a decimal' }]);
    expect(next.next.tickers.get(symbol)).toBe(prev.tickers.get(symbol));
  });

  it('a network fee of 1e400 (as a bare JSON number too) is a schema error of that network', async () => {
    const prev = await baseline();
    let target: { coin: string; network: string } | undefined;
    double.respond = async (path, upstream) => {
      const answer = await upstream();
      if (!path.startsWith('/api/v3/coins')) return answer;
      const body = parseJsonKeepingDecimals(answer.body) as Json[];
      const { coin, network } = openCoin(body);
      target = { coin: coin.coin as string, network: network.network as string };
      network.withdrawIntegerMultiple = 'HUGE';
      network.withdrawFee = '1e400';
      return { ...answer, body: JSON.stringify(body).replace('"HUGE"', '1E400') };
    };
    const next = await pollCoins(prev, 2);
    const { coin, network } = target as { coin: string; network: string };
    expect(next.issues).toEqual([{ entity: 'network', coin, network, index: 0, reason: 'withdrawFee is not a decimal' }]);
    expect(next.next.coins.get(coin)?.networkList.find((n) => n.network === network)).toEqual(prev.coins.get(coin)?.networkList.find((n) => n.network === network));
    expect(diff(prev, next.next)).toEqual([]);
  });
});
