/** Each action, as a client sees its effect on the two endpoints. */
import { COINS_PATH, TICKER_PATH } from '../../src/exchange/dialects/spot-v3/wire';
import { ActionError } from '../../src/simulator';
import { get, getJson, startTestSimulator, type TestSimulator } from '../support/simulator';
import { tickerProblems } from '../support/ticker-invariants';

type Json = Record<string, unknown>;

let sim: TestSimulator;
beforeEach(async () => {
  sim = await startTestSimulator({ coins: 60, weightLimit: { max: 100_000, windowMs: 10_000 } });
});
afterEach(() => sim.close());

const coin = async (name: string): Promise<Json | undefined> => (await getJson<Json[]>(sim.url, COINS_PATH)).find((c) => c.coin === name);
const networks = async (name: string): Promise<Json[]> => ((await coin(name))?.networkList as Json[] | undefined) ?? [];
const network = async (c: string, n: string): Promise<Json | undefined> => (await networks(c)).find((x) => x.network === n);
const ticker = (symbol: string): Promise<Json> => getJson<Json>(sim.url, `${TICKER_PATH}?symbol=${symbol}`);
const symbols = async (): Promise<string[]> => (await getJson<Json[]>(sim.url, TICKER_PATH)).map((t) => t.symbol as string);

describe('set_network', () => {
  it('closes and reopens a direction; the coin-level flag follows', async () => {
    sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false, withdrawDesc: 'TRC20 wallet maintenance' } });
    expect(await network('USDT', 'Tron(TRC20)')).toMatchObject({ withdrawEnable: false, withdrawDesc: 'TRC20 wallet maintenance', depositEnable: true });
    expect((await coin('USDT'))?.withdrawAllEnable).toBe(false);
    sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: true, withdrawDesc: null } });
    expect(await network('USDT', 'Tron(TRC20)')).toMatchObject({ withdrawEnable: true, withdrawDesc: null });
    expect((await coin('USDT'))?.withdrawAllEnable).toBe(true);
  });

  it('sets, changes and clears a message while the flag stays open', async () => {
    for (const desc of ['Deposits delayed', 'Deposits delayed: node sync', null]) {
      sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { depositDesc: desc } });
      expect(await network('BTC', 'BTC')).toMatchObject({ depositEnable: true, depositDesc: desc });
    }
  });

  it('changes fee, minimum, confirmations, contract, tag and the internal minimum', async () => {
    sim.control.apply({
      action: 'set_network', coin: 'ETH', network: 'ARBITRUM',
      set: { withdrawFee: '0.0003', withdrawMin: '0.01', minConfirm: 20, contractAddress: '0xabc', withdrawTag: true, withdrawInternalMin: '0.5', depositDust: '0.001' },
    });
    expect(await network('ETH', 'ARBITRUM')).toMatchObject({
      withdrawFee: '0.0003', withdrawMin: '0.01', minConfirm: 20, contractAddress: '0xabc', withdrawTag: true, withdrawInternalMin: '0.5', depositDust: '0.001',
    });
  });

  it('moves the default: exactly one default network remains', async () => {
    sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'SOL', set: { isDefault: true } });
    const defaults = (await networks('USDT')).filter((n) => n.isDefault === true).map((n) => n.network);
    expect(defaults).toEqual(['SOL']);
  });

  it('sends withdrawIntegerMultiple with the exact text given, as a number or as a string', async () => {
    sim.control.apply([
      { action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawIntegerMultiple: '1.0E-8' } },
      { action: 'set_network', coin: 'ETH', network: 'ETH', set: { withdrawIntegerMultiple: { string: '1' } } },
    ]);
    const raw = (await get(sim.url, COINS_PATH)).text;
    expect(raw).toContain('"network":"BTC","coin":"BTC"');
    expect(raw).toMatch(/"network":"BTC","coin":"BTC"[^}]*"withdrawIntegerMultiple":1\.0E-8,/);
    expect(raw).toMatch(/"network":"ETH","coin":"ETH"[^}]*"withdrawIntegerMultiple":"1",/);
  });

  it('takes hostile text in names and messages as it is, escaped only as JSON requires', async () => {
    const hostile = '<script>alert(1)</script>\r\nX-Injected: yes "quoted" \u202e\u0000 ✓';
    sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawDesc: hostile, name: hostile } });
    expect(await network('BTC', 'BTC')).toMatchObject({ withdrawDesc: hostile, name: hostile });
  });

  it('refuses a non-decimal fee, an isDefault of false, and a JSON number that is not one', () => {
    const attempt = (set: Json): unknown => {
      try {
        return sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set });
      } catch (err) {
        return (err as ActionError).problems;
      }
    };
    expect(attempt({ withdrawFee: '1e-3' })).toEqual(['set.withdrawFee: must be a non-negative decimal string such as "0.0005" (got "1e-3")']);
    expect(attempt({ isDefault: false })).toEqual(['set.isDefault: can only be true: set it on another network to move the default']);
    expect(attempt({ withdrawIntegerMultiple: '.5' })).toEqual([
      'set.withdrawIntegerMultiple: must be JSON number text such as "1E-8" or "0.01", or { string: "1" } to send a JSON string (got ".5")',
    ]);
  });

  it('names what does not exist', () => {
    expect(() => sim.control.apply({ action: 'set_network', coin: 'NOPE', network: 'X', set: {} })).toThrow('unknown coin "NOPE"');
    expect(() => sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'X', set: {} }))
      .toThrow('coin BTC has no network "X" (it has: BTC, BNB Smart Chain(BEP20), LIGHTNING)');
  });
});

describe('coins: set_coin, list_coin, delist_coin', () => {
  it('renames a coin', async () => {
    sim.control.apply({ action: 'set_coin', coin: 'BTC', set: { name: 'Bitcoin (renamed)' } });
    expect((await coin('BTC'))?.name).toBe('Bitcoin (renamed)');
  });

  it('lists a coin at the end, filling defaults from the chain and making the first network the default', async () => {
    sim.control.apply({ action: 'list_coin', coin: 'DEMO', name: 'Demo Token', networks: [{ network: 'Tron(TRC20)', contractAddress: 'TDemo' }, { network: 'MYCHAIN' }] });
    const all = await getJson<Json[]>(sim.url, COINS_PATH);
    expect(all.at(-1)).toEqual({
      coin: 'DEMO', name: 'Demo Token', depositAllEnable: true, withdrawAllEnable: true,
      networkList: [
        {
          network: 'Tron(TRC20)', coin: 'DEMO', name: 'Tron (TRC20)', isDefault: true, depositEnable: true, withdrawEnable: true,
          withdrawFee: '0', withdrawMin: '0', withdrawInternalMin: null, withdrawIntegerMultiple: 1e-8, minConfirm: 19, withdrawTag: false,
          depositDust: '0', contractAddress: 'TDemo', contractAddressUrl: 'https://tronscan.org/#/token20/', depositDesc: null, withdrawDesc: null,
        },
        {
          network: 'MYCHAIN', coin: 'DEMO', name: 'MYCHAIN', isDefault: false, depositEnable: true, withdrawEnable: true,
          withdrawFee: '0', withdrawMin: '0', withdrawInternalMin: null, withdrawIntegerMultiple: 1e-8, minConfirm: 1, withdrawTag: false,
          depositDust: '0', contractAddress: '', contractAddressUrl: '', depositDesc: null, withdrawDesc: null,
        },
      ],
    });
  });

  it('lists a coin with a chosen default', async () => {
    sim.control.apply({ action: 'list_coin', coin: 'DEMO', name: 'Demo', networks: [{ network: 'A' }, { network: 'B', isDefault: true }] });
    expect((await networks('DEMO')).map((n) => n.isDefault)).toEqual([false, true]);
  });

  it('refuses to list a coin twice, or with a network twice', () => {
    expect(() => sim.control.apply({ action: 'list_coin', coin: 'BTC', name: 'x', networks: [{ network: 'A' }] })).toThrow('coin BTC is already listed');
    expect(() => sim.control.apply({ action: 'list_coin', coin: 'X', name: 'x', networks: [{ network: 'A' }, { network: 'A' }] }))
      .toThrow('networks[1].network: network "A" is listed twice');
  });

  it('delists a coin with its trading pairs', async () => {
    expect(await symbols()).toEqual(expect.arrayContaining(['SOLUSDT', 'SOLBTC', 'SOLUSDC']));
    sim.control.apply({ action: 'delist_coin', coin: 'SOL' });
    expect(await coin('SOL')).toBeUndefined();
    expect((await symbols()).filter((s) => s.startsWith('SOL'))).toEqual([]);
    expect((await get(sim.url, `${TICKER_PATH}?symbol=SOLUSDT`)).text).toBe('{"code":-1121,"msg":"Invalid symbol."}');
  });
});

describe('networks: add_network, remove_network', () => {
  it('adds a network at the end, with defaults and the given fields', async () => {
    sim.control.apply({ action: 'add_network', coin: 'DOGE', network: 'SOL', set: { withdrawFee: '2', contractAddress: 'DogeSol' } });
    expect((await networks('DOGE')).at(-1)).toMatchObject({ network: 'SOL', name: 'Solana', withdrawFee: '2', contractAddress: 'DogeSol', isDefault: false });
  });

  it('hands the default to the first remaining network when the default is removed', async () => {
    sim.control.apply({ action: 'remove_network', coin: 'USDT', network: 'Tron(TRC20)' });
    const list = await networks('USDT');
    expect(list.map((n) => n.network)).not.toContain('Tron(TRC20)');
    expect(list.filter((n) => n.isDefault === true).map((n) => n.network)).toEqual(['Ethereum(ERC20)']);
  });

  it('refuses to remove the last network, or add one twice', () => {
    expect(() => sim.control.apply({ action: 'remove_network', coin: 'ADA', network: 'ADA' })).toThrow('network "ADA" is the last of ADA; delist the coin instead');
    expect(() => sim.control.apply({ action: 'add_network', coin: 'ADA', network: 'ADA' })).toThrow('coin ADA already has network "ADA"');
  });
});

describe('symbols: list_symbol, delist_symbol, move_price, set_ticker', () => {
  it('lists a symbol at its price, flat and without volume until trades come in', async () => {
    sim.control.apply({ action: 'list_symbol', symbol: 'ADABTC', price: '0.0000069' });
    const first = await ticker('ADABTC');
    expect(first).toMatchObject({ lastPrice: '0.000006900000', openPrice: '0.000006900000', priceChange: '0.000000000000', priceChangePercent: '0.000000', count: 0 });
    expect(Number(first.volume)).toBe(0);
    sim.clock.advance(20 * 60_000);
    const later = await ticker('ADABTC');
    expect(later.openPrice).toBe('0.000006900000');
    expect(later.lastPrice).not.toBe('0.000006900000');
    expect(Number(later.volume)).toBeGreaterThan(0);
    expect(later.count).toBeGreaterThan(0);
    expect(tickerProblems(later, sim.clock.now())).toEqual([]);
  });

  it('splits a symbol into base and quote from the listed coins, or refuses', () => {
    expect(sim.control.apply({ action: 'list_symbol', symbol: 'DOTBTC', price: '0.0001' })).toBe(1);
    expect(() => sim.control.apply({ action: 'list_symbol', symbol: 'NOPEUSDT', price: '1' }))
      .toThrow('cannot tell the base and quote of NOPEUSDT from the listed coins; give base and quote');
    expect(() => sim.control.apply({ action: 'list_symbol', symbol: 'BTCUSDT', price: '1' })).toThrow('symbol BTCUSDT is already listed');
  });

  it('delists a symbol', async () => {
    sim.control.apply({ action: 'delist_symbol', symbol: 'ETHBTC' });
    expect(await symbols()).not.toContain('ETHBTC');
  });

  it('moves lastPrice by the percent over the time given', async () => {
    const before = Number((await ticker('SOLUSDT')).lastPrice);
    sim.control.apply({ action: 'move_price', symbol: 'SOLUSDT', percent: 10, over: '1m' });
    sim.clock.advance(30_000);
    const half = Number((await ticker('SOLUSDT')).lastPrice);
    sim.clock.advance(30_000);
    const after = await ticker('SOLUSDT');
    expect(half / before).toBeGreaterThan(1.03);
    expect(half / before).toBeLessThan(1.07);
    expect(Number(after.lastPrice) / before).toBeGreaterThan(1.09);
    expect(Number(after.lastPrice) / before).toBeLessThan(1.11);
    expect(tickerProblems(after, sim.clock.now())).toEqual([]);
  });

  it('does not shift the price already shown when a move starts mid-minute', async () => {
    sim.clock.advance(37_000);
    const before = await ticker('SOLUSDT');
    sim.control.apply({ action: 'move_price', symbol: 'SOLUSDT', percent: 50, over: '1m' });
    const after = await ticker('SOLUSDT');
    expect([after.lastPrice, after.highPrice, after.lowPrice]).toEqual([before.lastPrice, before.highPrice, before.lowPrice]);
  });

  it('forces ticker fields to any JSON value until cleared', async () => {
    sim.control.apply({ action: 'set_ticker', symbol: 'BTCUSDT', set: { lastPrice: null, count: 'many', priceChangePercent: '-3.38' } });
    expect(await ticker('BTCUSDT')).toMatchObject({ lastPrice: null, count: 'many', priceChangePercent: '-3.38' });
    sim.control.apply({ action: 'set_ticker', symbol: 'BTCUSDT', clear: true });
    expect(tickerProblems(await ticker('BTCUSDT'), sim.clock.now())).toEqual([]);
  });

  it('refuses ticker fields the spec does not have', () => {
    expect(() => sim.control.apply({ action: 'set_ticker', symbol: 'BTCUSDT', set: { lastprice: '1' } })).toThrow(ActionError);
  });
});
