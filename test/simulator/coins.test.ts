/**
 * GET /api/v3/coins against spec section 4.1 and 2.1/2.2, over real HTTP, at the default
 * scale (4,000 coins): every coin and every network is checked.
 */
import { COINS_PATH, NETWORK_FIELD_NAMES, USED_WEIGHT_HEADER } from '../../src/exchange/dialects/spot-v3/wire';
import { get, startTestSimulator, type TestSimulator } from '../support/simulator';

// Work at full size (an 8,000-alert storm, thousands of coins) takes seconds on a loaded machine: no test of this file is bound by its speed.
jest.setTimeout(60_000);

type Json = Record<string, unknown>;

const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const isString = (v: unknown): boolean => typeof v === 'string';
const isBool = (v: unknown): boolean => typeof v === 'boolean';
const isDecimal = (v: unknown): boolean => typeof v === 'string' && DECIMAL.test(v);
const isNullableString = (v: unknown): boolean => v === null || (typeof v === 'string' && v.length > 0);

/** Spec 2.2, field by field. */
const NETWORK_TYPES: Record<(typeof NETWORK_FIELD_NAMES)[number], (v: unknown) => boolean> = {
  network: (v) => typeof v === 'string' && v.length > 0,
  coin: isString,
  name: (v) => typeof v === 'string' && v.length > 0,
  isDefault: isBool,
  depositEnable: isBool,
  withdrawEnable: isBool,
  withdrawFee: isDecimal,
  withdrawMin: isDecimal,
  withdrawInternalMin: (v) => v === null || isDecimal(v),
  withdrawIntegerMultiple: (v) => typeof v === 'number' && v > 0,
  minConfirm: (v) => Number.isInteger(v) && (v as number) >= 0,
  withdrawTag: isBool,
  depositDust: isDecimal,
  contractAddress: isString,
  contractAddressUrl: isString,
  depositDesc: isNullableString,
  withdrawDesc: isNullableString,
};

let sim: TestSimulator;
let raw: string;
let headers: Headers;
let coins: Json[];
let networks: Json[];

beforeAll(async () => {
  sim = await startTestSimulator({ weightLimit: { max: 1_000_000, windowMs: 10_000 } });
  const answer = await get(sim.url, COINS_PATH);
  expect(answer.status).toBe(200);
  raw = answer.text;
  headers = answer.headers;
  coins = JSON.parse(raw) as Json[];
  networks = coins.flatMap((c) => c.networkList as Json[]);
}, 30_000);

afterAll(() => sim.close());

describe('spec 4.1 rule 1: one Coin object per supported coin', () => {
  it('answers a request without parameters with an array of 4,000 coins, each symbol once', () => {
    expect(Array.isArray(coins)).toBe(true);
    expect(coins).toHaveLength(4000);
    expect(new Set(coins.map((c) => c.coin)).size).toBe(4000);
    expect(sim.control.state().coins).toBe(4000);
  });

  it('answers as application/json; charset=utf-8 with the used weight', () => {
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(headers.get(USED_WEIGHT_HEADER)).toBe('5');
  });

  it('has the fields of spec 2.1, in order, with their types', () => {
    const keys = ['coin', 'name', 'depositAllEnable', 'withdrawAllEnable', 'networkList'].join();
    const bad = coins.filter((c) => Object.keys(c).join() !== keys || !/^[A-Z0-9]{1,20}$/.test(String(c.coin))
      || typeof c.name !== 'string' || typeof c.depositAllEnable !== 'boolean' || typeof c.withdrawAllEnable !== 'boolean'
      || !Array.isArray(c.networkList) || c.networkList.length === 0);
    expect(bad).toEqual([]);
  });

  it('lists well-known coins first, then generated ones, some with digits', () => {
    expect(coins.slice(0, 9).map((c) => c.coin)).toEqual(['BTC', 'ETH', 'USDT', 'USDC', 'BNB', 'SOL', 'TRX', 'XRP', 'DOGE']);
    expect(coins.some((c) => c.coin === '1INCH')).toBe(true);
    expect(coins.filter((c) => /\d/.test(c.coin as string)).length).toBeGreaterThan(40);
  });

  it('ignores parameters it does not define', async () => {
    const answer = await get(sim.url, `${COINS_PATH}?coin=BTC`);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(raw);
  });
});

describe('spec 4.1 rule 2: every network has the fields of spec 2.2', () => {
  it('has every field, in the spec order, with its type, on all ~8,000 networks', () => {
    expect(networks.length).toBeGreaterThan(7500);
    expect(networks.length).toBeLessThan(9000);
    const bad = networks.flatMap((n) => {
      const wrong = NETWORK_FIELD_NAMES.filter((f) => !NETWORK_TYPES[f](n[f]));
      if (Object.keys(n).join() !== NETWORK_FIELD_NAMES.join()) wrong.push('network');
      return wrong.length === 0 ? [] : [`${String(n.coin)} ${String(n.network)}: ${wrong.join(', ')}`];
    });
    expect(bad).toEqual([]);
  });

  it('repeats the parent coin in every network', () => {
    expect(coins.filter((c) => (c.networkList as Json[]).some((n) => n.coin !== c.coin))).toEqual([]);
  });

  it('has exactly one default network per coin, and unique network names per coin', () => {
    const bad = coins.filter((c) => {
      const list = c.networkList as Json[];
      return list.filter((n) => n.isDefault === true).length !== 1 || new Set(list.map((n) => n.network)).size !== list.length;
    });
    expect(bad).toEqual([]);
  });

  it('derives depositAllEnable / withdrawAllEnable: true iff every network has the flag', () => {
    const bad = coins.filter((c) => {
      const list = c.networkList as Json[];
      return c.depositAllEnable !== list.every((n) => n.depositEnable === true) || c.withdrawAllEnable !== list.every((n) => n.withdrawEnable === true);
    });
    expect(bad).toEqual([]);
    expect(coins.some((c) => c.withdrawAllEnable === false)).toBe(true);
  });

  it('keeps the exact text of withdrawIntegerMultiple as a JSON number, exponent notation included', () => {
    const texts = [...raw.matchAll(/"withdrawIntegerMultiple":([^,}]*)/g)].map((m) => m[1] as string);
    expect(texts).toHaveLength(networks.length);
    expect(texts.filter((t) => !JSON_NUMBER.test(t))).toEqual([]);
    expect(new Set(texts)).toEqual(new Set(['1E-8', '1e-8', '0.00000001', '0.000001', '1E-6', '1e-6', '0.0001', '0.01', '1', '1E-7']));
    expect(raw).toContain('{"network":"BTC","coin":"BTC","name":"Bitcoin","isDefault":true,"depositEnable":true,"withdrawEnable":true,'
      + '"withdrawFee":"0.0002","withdrawMin":"0.001","withdrawInternalMin":"0.00000001","withdrawIntegerMultiple":1E-8,');
  });

  it('names networks with plain ids and chain labels, with contracts and explorers for tokens', () => {
    const usdt = coins.find((c) => c.coin === 'USDT') as Json;
    const list = usdt.networkList as Json[];
    expect(list.map((n) => n.network)).toEqual(expect.arrayContaining(['Tron(TRC20)', 'Ethereum(ERC20)', 'BNB Smart Chain(BEP20)', 'SOL']));
    expect(list.find((n) => n.network === 'Tron(TRC20)')).toMatchObject({
      isDefault: true, contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', contractAddressUrl: 'https://tronscan.org/#/token20/',
    });
    const btc = coins.find((c) => c.coin === 'BTC') as Json;
    expect((btc.networkList as Json[])[0]).toMatchObject({ network: 'BTC', contractAddress: '', minConfirm: 2 });
    const tokens = networks.filter((n) => (n.network as string).includes('(ERC20)') && n.network !== n.coin);
    expect(tokens.length).toBeGreaterThan(1000);
    expect(tokens.filter((n) => !/^0x[0-9a-fA-F]{40}$/.test(String(n.contractAddress)))).toEqual([]);
    expect(networks.some((n) => n.withdrawTag === true)).toBe(true);
  });
});

describe('spec 4.1 rule 3: depositDesc / withdrawDesc are null when no message applies', () => {
  it('closes about 3 % of networks, each closed direction with a message', () => {
    const closed = networks.filter((n) => n.depositEnable === false || n.withdrawEnable === false);
    expect(closed.length / networks.length).toBeGreaterThan(0.015);
    expect(closed.length / networks.length).toBeLessThan(0.05);
    const silent = closed.filter((n) => (n.withdrawEnable === false && typeof n.withdrawDesc !== 'string')
      || (n.depositEnable === false && typeof n.depositDesc !== 'string'));
    expect(silent).toEqual([]);
    expect(networks.some((n) => n.withdrawDesc === 'Wallet maintenance, withdrawals suspended')).toBe(true);
  });

  it('lets a few open networks carry a message anyway, as real deployments do', () => {
    const notices = networks.filter((n) => (n.depositEnable === true && n.depositDesc !== null) || (n.withdrawEnable === true && n.withdrawDesc !== null));
    expect(notices.length).toBeGreaterThan(10);
  });

  it('gives null, not an empty string, to most networks', () => {
    const withoutMessage = networks.filter((n) => n.depositDesc === null && n.withdrawDesc === null);
    expect(withoutMessage.length / networks.length).toBeGreaterThan(0.9);
  });
});
