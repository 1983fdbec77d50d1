import fc from 'fast-check';
import { answerMemory, type AnswerMemory } from '../../src/exchange/decode-records';
import type { Decoder } from '../../src/exchange/dialect';
import { spotV3 } from '../../src/exchange/dialects/spot-v3';
import { booleanValue, keyIn, listIn, requiredDecimal, statusFlag, timeOf, type CoinSource, type TickerSource } from '../../src/exchange/mapped';
import { publicDialect } from '../../src/exchange/public-dialect';
import { dec, requiredStr, isObject } from '../../src/exchange/read';
import type { CoinRecord, Endpoint } from '../../src/snapshot/model';
import { answerShape, answers, answerText, BARE, spotCoin, spotTicker, written } from '../support/answer-texts';
import { networkRecord, tickerRecord } from '../support/records';

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
      // Parsed: the two records not seen before, and the (empty) answer around them.
      expect(parse.mock.calls.map(([t]) => t.slice(0, 12))).toEqual(['{"coin":"D",', '{"coin":"B",', '[]']);
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
