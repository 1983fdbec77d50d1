import fc from 'fast-check';
import { answerMemory, type AnswerMemory } from '../../src/exchange/decode-records';
import type { Decoder } from '../../src/exchange/dialect';
import { binance } from '../../src/exchange/dialects/binance';
import { bybit } from '../../src/exchange/dialects/bybit';
import { mexc } from '../../src/exchange/dialects/mexc';
import { okx } from '../../src/exchange/dialects/okx';
import { spotV3 } from '../../src/exchange/dialects/spot-v3';
import { booleanValue, keyIn, listIn, requiredDecimal, statusFlag, timeOf, type CoinSource, type TickerSource } from '../../src/exchange/mapped';
import { publicDialect } from '../../src/exchange/public-dialect';
import { dec, requiredStr, isObject } from '../../src/exchange/read';
import type { CoinRecord, Endpoint } from '../../src/snapshot/model';
import { answerShape, answers, answerText, BARE, spotCoin, spotTicker, written } from '../support/answer-texts';
import { networkRecord, tickerRecord } from '../support/records';
import { binanceCoin, bybitCoin, bybitTicker, mexcCoin, okxRow, okxTicker, ticker24hr } from './signed-raw';

/**
 * A changed answer costs its changed records: a record whose text is that of a record of the
 * last answer to the same request is taken as it was decoded then (decode-records.ts). For any
 * sequence of answers (records that move, keys in another order, other spacing, duplicates,
 * malformed records, damaged answers) the records and issues are exactly those of a full
 * re-parse, with the same previous records, and an answer that fails fails the same way.
 */

type Outcome = { records: unknown[]; issues: unknown[] } | { threw: string };

async function read(decoder: Decoder, endpoint: Endpoint, text: string, previous: ReadonlyMap<string, never> | undefined, memory?: AnswerMemory): Promise<Outcome> {
  try {
    const body = await decoder.parse(text, endpoint, memory);
    const { records, issues } = endpoint === 'coins' ? await decoder.coins(body, previous, memory) : await decoder.tickers(body, previous, memory);
    return { records, issues };
  } catch (err) {
    return { threw: (err as Error).name };
  }
}

/** Runs a sequence of answers through one memory and, afresh, without one; every answer must read the same. */
async function sameAsFresh(decoder: Decoder, endpoint: Endpoint, key: string, texts: readonly string[]): Promise<void> {
  const memory = answerMemory();
  let previous: Map<string, never> | undefined;
  for (const text of texts) {
    const got = await read(decoder, endpoint, text, previous, memory);
    const want = await read(decoder, endpoint, text, previous);
    expect(got).toEqual(want);
    if ('records' in got) previous = new Map(got.records.map((r) => [(r as Record<string, string>)[key] as string, r as never]));
  }
}

describe('records reused by their text (spot-v3)', () => {
  it('coins: any sequence of answers reads as a full re-parse of each', async () => {
    await fc.assert(
      fc.asyncProperty(answers(spotCoin, BARE.coins), (texts) => sameAsFresh(spotV3.decode, 'coins', 'coin', texts)),
      { numRuns: 300 },
    );
  });

  it('tickers: any sequence of answers reads as a full re-parse of each', async () => {
    await fc.assert(
      fc.asyncProperty(answers(spotTicker, BARE.tickers), (texts) => sameAsFresh(spotV3.decode, 'tickers', 'symbol', texts)),
      { numRuns: 300 },
    );
  });

  it('takes an unchanged record as its previous object, without parsing it, wherever it moved', async () => {
    const coin = (c: string, fee: string): string => JSON.stringify({ coin: c, name: c, depositAllEnable: true, withdrawAllEnable: true, networkList: [networkRecord({ coin: c, network: c, withdrawFee: fee })] }).replace('"1E-8"', '1E-8');
    const memory = answerMemory();
    const parse = jest.fn(JSON.parse);
    const decode = async (text: string): Promise<CoinRecord[]> => (await spotV3.decode.coins(await spotV3.decode.parse(text, 'coins', memory), undefined, memory)).records;
    const first = await decode(`[${coin('A', '1')},${coin('B', '1')},${coin('C', '1')}]`);
    expect(memory.size).toBe(3);
    const spy = jest.spyOn(JSON, 'parse').mockImplementation(parse);
    try {
      // B changed, C moved to the front, D is new.
      const next = await decode(`[${coin('C', '1')},${coin('D', '1')},${coin('A', '1')},${coin('B', '2')}]`);
      expect(next.map((c) => c.coin)).toEqual(['C', 'D', 'A', 'B']);
      expect(next[0]).toBe(first[2]);
      expect(next[2]).toBe(first[0]);
      expect(next[3]?.networkList[0]?.withdrawFee).toBe('2');
      // Parsed: the two records not seen before, and the (empty) answer around them (a text
      // may be parsed twice: first as it is, then with the decimal pre-pass when it had bare numbers).
      const parsed = parse.mock.calls.map(([t]) => t.slice(0, 12));
      expect([...new Set(parsed)]).toEqual(['{"coin":"D",', '{"coin":"B",', '[]']);
      // Twice at most one text: the first with bare decimals this parser sees (after it, the pre-pass first).
      expect(parsed.length).toBeLessThanOrEqual(4);
    } finally {
      spy.mockRestore();
    }
  });
});

// A mapped dialect (public-dialect.ts, mapped.ts), with an answer time that may change: a ticker remembered under another time is read again.
const COINS: CoinSource = {
  coin: (o) => keyIn(o, 'id', (t) => t.toUpperCase()),
  name: (o) => (typeof o.name === 'string' ? o.name : null),
  networks: (o) => listIn(o, 'nets'),
  networkKey: (n) => keyIn(n, 'id'),
  network: (n, coin) => networkRecord({ coin, network: requiredStr(n, 'id'), depositEnable: statusFlag(n, 'dep', booleanValue), withdrawEnable: statusFlag(n, 'wd', booleanValue), withdrawFee: dec(n, 'fee') }),
};
const TICKERS: TickerSource = {
  symbol: (o) => keyIn(o, 's'),
  ticker: (o, symbol, time) => tickerRecord(symbol, { lastPrice: requiredDecimal(o, 'p'), closeTime: time }),
};
// A variable, not a literal, so that it also has what a later PublicDialect asks (weightLimit).
const mappedConfig = {
  name: 'mapped-test',
  baseUrl: 'http://127.0.0.1:1',
  paths: { coins: '/coins', tickers: '/tickers' },
  weights: { coins: 1, tickers: 1 },
  weightLimit: { max: 100, windowMs: 1_000 },
  decimalKeys: { coins: ['fee'], tickers: ['p'] },
  coinList: (body: unknown): unknown[] => (Array.isArray(body) ? body : isObject(body) && Array.isArray(body.data) ? body.data : []),
  tickerList: (body: unknown): { list: unknown[]; time: number | null } => ({ list: isObject(body) && Array.isArray(body.data) ? body.data : Array.isArray(body) ? body : [], time: isObject(body) ? timeOf(body.ts) : null }),
  coins: COINS,
  tickers: TICKERS,
  readRefusal: () => ({}),
};
const mappedDialect = publicDialect(mappedConfig);

const flagValue = fc.constantFrom<unknown>(true, false, 'true', 'false', undefined, 'maybe');
const mappedCoin = fc.record({
  id: fc.constantFrom<unknown>('btc', 'BTC', 'eth', '', undefined),
  name: fc.constantFrom<unknown>('Bitcoin', null),
  nets: fc.oneof(fc.array(fc.record({ id: fc.constantFrom<unknown>('A', 'B', undefined), dep: flagValue, wd: flagValue, fee: fc.constantFrom<unknown>('0.1', '1E-8', 'x') }), { maxLength: 3 }), fc.constant(null)),
});
const mappedTicker = fc.record({ s: fc.constantFrom<unknown>('BTCUSDT', 'ETHUSDT', undefined), p: fc.constantFrom<unknown>('1', '2.50', '7E-9', 'x', null) });

describe('records reused by their text (mapped dialects)', () => {
  it('coins: any sequence of answers reads as a full re-parse of each, with the same previous records', async () => {
    await fc.assert(
      fc.asyncProperty(answers(mappedCoin, ['fee']), (texts) => sameAsFresh(mappedDialect.decode, 'coins', 'coin', texts)),
      { numRuns: 300 },
    );
  });

  it('tickers: the same, also when the answer time changes between answers', async () => {
    const shaped = fc
      .array(fc.tuple(mappedTicker, fc.nat({ max: 5 })), { minLength: 1, maxLength: 6 })
      .map((pool) => pool.map(([raw, way]) => written(raw, way, ['p'])))
      .chain((pool) => fc.array(fc.tuple(answerShape(pool.length), fc.constantFrom(1_000, 2_000)), { minLength: 1, maxLength: 6 }).map((s) => s.map(([shape, ts]) => answerText(pool, { ...shape, envelope: true }, `"ts":${ts},`))));
    await fc.assert(
      fc.asyncProperty(shaped, (texts) => sameAsFresh(mappedDialect.decode, 'tickers', 'symbol', texts)),
      { numRuns: 300 },
    );
  });
});

/**
 * The signed dialects (decode-list.ts; OKX's rows read through the memory and grouped into coins
 * after): raw records as the exchanges send them (signed-raw.ts), in each exchange's own answer.
 */
function signedAnswers(record: fc.Arbitrary<unknown>, bare: readonly string[], wrap: (list: string, variant: number) => string): fc.Arbitrary<string[]> {
  return fc
    .array(fc.tuple(record, fc.nat({ max: 5 }), fc.nat(), fc.nat({ max: 9 })), { minLength: 1, maxLength: 6 })
    // Each record's text, and the same with one digit changed (a price or a fee that moved): a
    // record changed in its place that keeps its length, so only its whole text tells.
    .map((pool) => pool.flatMap(([raw, way, at, digit]) => [written(raw, way, bare), moved(written(raw, way, bare), at, digit)]))
    .chain((pool) =>
      fc.array(fc.tuple(answerShape(pool.length), fc.nat({ max: 1 })), { minLength: 1, maxLength: 6 }).map((shapes) =>
        shapes.map(([shape, variant]) => {
          const whole = wrap(`[${shape.picks.map((p) => pool[p]).join(shape.sep)}]`, variant);
          return shape.cut === undefined ? whole : whole.slice(0, Math.max(0, whole.length - 1 - shape.cut));
        }),
      ),
    );
}

/** `text` with its (at mod n)th digit replaced by `digit` (the same text when it has none). */
function moved(text: string, at: number, digit: number): string {
  const places = [...text.matchAll(/\d/g)].map((m) => m.index);
  if (places.length === 0) return text;
  const place = places[at % places.length] as number;
  return `${text.slice(0, place)}${digit}${text.slice(place + 1)}`;
}

const bare = (list: string): string => list;
const okxEnvelope = (list: string): string => `{"code":"0","msg":"","data":${list}}`;
// Bybit's answer time (top level) is every ticker's closeTime: it changes between answers.
const bybitTimes = [1673859087947, 1673859088947];
const bybitCoins = (list: string, variant: number): string => `{"retCode":0,"retMsg":"success","result":{"rows":${list}},"retExtInfo":{},"time":${bybitTimes[variant]}}`;
const bybitTickers = (list: string, variant: number): string => `{"retCode":0,"retMsg":"OK","result":{"category":"spot","list":${list}},"retExtInfo":{},"time":${bybitTimes[variant]}}`;

describe.each([
  ['binance', binance, binanceCoin, ['withdrawFee'], bare, ticker24hr, ['lastPrice'], bare],
  ['mexc', mexc, mexcCoin, ['withdrawFee'], bare, ticker24hr, ['lastPrice'], bare],
  ['okx', okx, okxRow, ['minFee'], okxEnvelope, okxTicker, ['last'], okxEnvelope],
  ['bybit', bybit, bybitCoin, ['withdrawFee'], bybitCoins, bybitTicker, ['lastPrice'], bybitTickers],
] as const)('records reused by their text (%s)', (_name, dialect, coin, coinBare, coins, ticker, tickerBare, tickers) => {
  it('coins: any sequence of answers reads as a full re-parse of each, with the same previous records', async () => {
    await fc.assert(
      fc.asyncProperty(signedAnswers(coin, coinBare, coins), (texts) => sameAsFresh(dialect.decode, 'coins', 'coin', texts)),
      { numRuns: 300 },
    );
  });

  it('tickers: the same', async () => {
    await fc.assert(
      fc.asyncProperty(signedAnswers(ticker, tickerBare, tickers), (texts) => sameAsFresh(dialect.decode, 'tickers', 'symbol', texts)),
      { numRuns: 300 },
    );
  });
});

describe('the signed dialects take an unchanged record as it was, without parsing it, wherever it moved', () => {
  // One record per coin (OKX: two rows, one per chain), as dialects.md section 2 names their fields.
  const raw = {
    binance: (c: string, fee: string): unknown[] => [{ coin: c, name: c, depositAllEnable: true, withdrawAllEnable: true, networkList: [{ network: 'ETH', coin: c, depositEnable: true, withdrawEnable: true, withdrawFee: fee }] }],
    mexc: (c: string, fee: string): unknown[] => [{ coin: c, name: c, networkList: [{ coin: c, network: 'Ethereum(ERC20)', netWork: 'ETH', depositEnable: true, withdrawEnable: true, withdrawFee: fee }] }],
    okx: (c: string, fee: string): unknown[] => [
      { ccy: c, chain: `${c}-ERC20`, name: c, canDep: true, canWd: true, mainNet: false, minFee: fee },
      { ccy: c, chain: `${c}-TRC20`, name: c, canDep: true, canWd: true, mainNet: false, minFee: '1' },
    ],
    bybit: (c: string, fee: string): unknown[] => [{ coin: c, name: c, chains: [{ chain: 'ETH', chainType: 'Ethereum', chainDeposit: '1', chainWithdraw: '1', withdrawFee: fee }] }],
  };
  const answer = { binance: bare, mexc: bare, okx: okxEnvelope, bybit: (list: string): string => bybitCoins(list, 0) };

  it.each([
    ['binance', binance, 1],
    ['mexc', mexc, 1],
    ['okx', okx, 2],
    ['bybit', bybit, 1],
  ] as const)('%s', async (name, dialect, perCoin) => {
    const text = (coins: [string, string][]): string => answer[name](`[${coins.flatMap(([c, fee]) => raw[name](c, fee).map((r) => JSON.stringify(r))).join(',')}]`);
    const memory = answerMemory();
    const decode = async (t: string, previous?: ReadonlyMap<string, CoinRecord>): Promise<CoinRecord[]> => (await dialect.decode.coins(await dialect.decode.parse(t, 'coins', memory), previous, memory)).records;
    const first = await decode(text([['AAA', '0.1'], ['BBB', '0.1'], ['CCC', '0.1']]));
    expect(memory.size).toBe(3 * perCoin);
    const parse = jest.fn(JSON.parse);
    const spy = jest.spyOn(JSON, 'parse').mockImplementation(parse);
    try {
      // CCC moved to the front, BBB's fee changed, AAA moved to the end.
      // No previous records passed: the memory alone gives back CCC and AAA (OKX: the coins built from their unchanged rows).
      const next = await decode(text([['CCC', '0.1'], ['BBB', '0.2'], ['AAA', '0.1']]));
      expect(next.map((c) => [c.coin, c.networkList[0]?.withdrawFee])).toEqual([['CCC', '0.1'], ['BBB', '0.2'], ['AAA', '0.1']]);
      expect([next[0] === first[2], next[2] === first[0]]).toEqual([true, true]);
      // Parsed: BBB's changed record (OKX: its changed row alone) and the answer around the records.
      expect(parse.mock.calls.length).toBe(2);
      expect(parse.mock.calls[0]?.[0]).toContain('BBB');
    } finally {
      spy.mockRestore();
    }
  });
});
