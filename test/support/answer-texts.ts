import fc from 'fast-check';
import { isObject } from '../../src/exchange/read';
import { COIN_FIELDS, fieldsOf, NETWORK_FIELDS, TICKER_FIELDS, type FieldSpec, type FieldType } from '../../src/snapshot/fields';
import { networkRecord, tickerRecord } from './records';

/**
 * Answers as an exchange (or a broken one) writes them, for property tests of the ways an
 * answer is read: records taken from a pool of texts, written in several ways, moved, picked
 * twice, fuzzed, in an envelope or not, now and then cut short.
 */

/** One record's text, in one of the ways an exchange may write it (keys reversed, pretty-printed; `bare` keys' decimals as bare numbers). */
export function written(raw: unknown, way: number, bare: readonly string[]): string {
  const value = way % 3 === 1 && isObject(raw) ? Object.fromEntries(Object.entries(raw).reverse()) : raw;
  let text = JSON.stringify(value, null, way % 3 === 2 ? 1 : undefined) ?? 'null';
  // Decimals sent as bare numbers (the spec's withdrawIntegerMultiple: 1E-8).
  for (const key of bare) text = text.replace(new RegExp(`"${key}":( ?)"(-?\\d+(?:\\.\\d+)?(?:E-?\\d+)?)"`, 'g'), `"${key}":$1$2`);
  return text;
}

export interface AnswerShape {
  /** Indexes into the pool, in answer order (any order, some twice, maybe none). */
  picks: number[];
  sep: string;
  envelope: boolean;
  /** Characters cut off the end (a damaged answer), or none. */
  cut: number | undefined;
}

/** An answer: records picked from a pool of texts (in any order, some twice), in an envelope or not, now and then damaged. */
export const answerShape = (poolSize: number): fc.Arbitrary<AnswerShape> =>
  fc.record({
    picks: fc.array(fc.nat({ max: poolSize - 1 }), { maxLength: 8 }),
    sep: fc.constantFrom(',', ', ', ',\n  '),
    envelope: fc.boolean(),
    cut: fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat({ max: 400 }) }),
  });

export function answerText(pool: readonly string[], shape: AnswerShape, extra = ''): string {
  const list = `[${shape.picks.map((p) => pool[p]).join(shape.sep)}]`;
  const text = shape.envelope ? `{"code":0,${extra}"data":${list}}` : list;
  return shape.cut === undefined ? text : text.slice(0, Math.max(0, text.length - 1 - shape.cut));
}

// Raw field values a real exchange (or a broken one) may send (as spot-v3/reuse.test.ts).
const text = fc.constantFrom<unknown>('1', '1.0', '0.5', '1E-8', '', 'abc', null, undefined, 1, true, '<b>x</b>');
const flag = fc.constantFrom<unknown>(true, false, 'true', null, undefined, 1);
const int = fc.constantFrom<unknown>(12, 0, '12', 1.5, null, 'x');
export const RAW: Record<FieldType, fc.Arbitrary<unknown>> = {
  key: fc.constantFrom<unknown>('BTC', 'ERC20', 'TRC20', '', null),
  parent: fc.constantFrom<unknown>('BTC', 'ETH', null, undefined, 7),
  text,
  flag,
  decimal: text,
  int,
  networks: fc.constant([]),
};

/** Mostly valid records (`valid`: so that most are taken, and remembered), some with fuzzed fields (`over` for some fields), a few not objects. */
export function rawRecord(list: Record<string, FieldSpec>, over: Record<string, fc.Arbitrary<unknown>>, valid: (() => Record<string, unknown>) | fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  const fuzzed = fc.record(Object.fromEntries(fieldsOf(list).map(([k, f]) => [k, over[k] ?? RAW[f.type]])));
  const good = typeof valid === 'function' ? fc.constant(null).map(valid) : valid;
  return fc.oneof({ weight: 5, arbitrary: good }, { weight: 3, arbitrary: fuzzed }, { weight: 1, arbitrary: fc.constantFrom<unknown>(5, 'x', null, [1]) });
}

// Fees of one length: a record changed in its place keeps its length (so only its text tells).
const validNetwork = (coin: string, network: string, open: boolean, fee = '0.1'): Record<string, unknown> => ({ ...networkRecord({ coin, network, withdrawEnable: open, withdrawFee: fee }) });

/** A spot-v3 coin (BTC, ETH or TRX) with up to two networks, or a fuzzed one. */
export const spotCoin = fc
  .tuple(fc.constantFrom('BTC', 'ETH', 'TRX'), fc.boolean(), fc.nat({ max: 2 }), fc.constantFrom('0.1', '0.2', '0.3'))
  .chain(([coin, open, nets, fee]) =>
    rawRecord(COIN_FIELDS, { coin: fc.constant(coin), networkList: fc.array(rawRecord(NETWORK_FIELDS, { coin: fc.constant(coin) }, () => validNetwork(coin, 'ERC20', open)), { maxLength: 2 }) }, () => ({
      coin,
      name: coin,
      depositAllEnable: true,
      withdrawAllEnable: open,
      networkList: Array.from({ length: nets }, (_, i) => validNetwork(coin, ['ERC20', 'TRC20'][i] as string, open, fee)),
    })),
  );

/** A spot-v3 ticker (BTCUSDT, ETHUSDT or TRXUSDT), or a fuzzed one. */
export const spotTicker = fc
  .tuple(fc.constantFrom('BTCUSDT', 'ETHUSDT', 'TRXUSDT'), fc.constantFrom('1.50', '2.50', '3E-7', '1'))
  .chain(([symbol, price]) => rawRecord(TICKER_FIELDS, { symbol: fc.constant(symbol) }, () => ({ ...tickerRecord(symbol, { lastPrice: price }) })));

/** Keys whose decimals an answer may write as bare numbers, per endpoint. */
export const BARE = { coins: ['withdrawIntegerMultiple', 'withdrawFee'], tickers: ['lastPrice'] };

/** A pool of record texts (each record written one way) from `record`. */
export function recordPool(record: fc.Arbitrary<unknown>, bare: readonly string[], maxLength = 8): fc.Arbitrary<string[]> {
  return fc.array(fc.tuple(record, fc.nat({ max: 5 })), { minLength: 1, maxLength }).map((pool) => pool.map(([raw, way]) => written(raw, way, bare)));
}

/** A pool of record texts and a sequence of answers drawn from it. */
export function answers(record: fc.Arbitrary<unknown>, bare: readonly string[]): fc.Arbitrary<string[]> {
  return recordPool(record, bare).chain((pool) => fc.array(answerShape(pool.length), { minLength: 1, maxLength: 6 }).map((shapes) => shapes.map((s) => answerText(pool, s))));
}
