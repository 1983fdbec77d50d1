import fc from 'fast-check';
import { decodeCoins, decodeTickers } from '../../../../src/exchange/dialects/spot-v3/decode';
import { diff } from '../../../../src/snapshot/diff';
import { COIN_FIELDS, fieldsOf, NETWORK_FIELDS, TICKER_FIELDS, type FieldSpec } from '../../../../src/snapshot/fields';
import { applyCoins, applyTickers } from '../../../../src/snapshot/merge';
import { emptySnapshot, type Snapshot } from '../../../../src/snapshot/model';

/**
 * Property: an answer that carries records twice (identical copies, copies that disagree in
 * any field, malformed copies, anywhere in the answer) never produces a change, neither when
 * the copies come nor when they go again.
 */

type Json = Record<string, unknown>;

const flag = fc.boolean();
const desc = fc.constantFrom<string | null>(null, 'Wallet maintenance', '');
const fee = fc.constantFrom('0.1', '1', '1E-8', '25');

const wireNetwork = (network: string, isDefault: boolean): fc.Arbitrary<Json> =>
  fc.record({
    network: fc.constant(network),
    name: fc.constant(network),
    isDefault: fc.constant(isDefault),
    depositEnable: flag,
    withdrawEnable: flag,
    withdrawFee: fee,
    withdrawMin: fee,
    withdrawIntegerMultiple: fc.constantFrom('1E-8', '1'),
    minConfirm: fc.constantFrom(1, 12, 64),
    withdrawTag: flag,
    depositDust: fee,
    contractAddress: fc.constantFrom('', '0xabc'),
    contractAddressUrl: fc.constant(''),
    depositDesc: desc,
    withdrawDesc: desc,
  });

const wireCoin = (coin: string): fc.Arbitrary<Json> =>
  fc.subarray(['ERC20', 'TRC20', 'BEP20', 'SOL'], { minLength: 1 }).chain((nets) =>
    fc.record({
      coin: fc.constant(coin),
      name: fc.constant(coin),
      depositAllEnable: flag,
      withdrawAllEnable: flag,
      networkList: fc.tuple(...nets.map((n, i) => wireNetwork(n, i === 0))), // one default, as the spec has it
    }),
  );

const coinList = fc.subarray(['BTC', 'ETH', 'USDT', 'SOL', 'XRP'], { minLength: 1 }).chain((coins) => fc.tuple(...coins.map(wireCoin)));

/** A copy of a record: identical, with one field changed to another value of any kind, or broken. */
const copyOf = (record: Json, keys: readonly string[]): fc.Arbitrary<Json> =>
  fc.oneof(
    fc.constant(structuredClone(record)),
    fc.tuple(fc.constantFrom(...keys), fc.constantFrom<unknown>(true, false, null, '0', '1e400', 'x', 7, '')).map(([k, v]) => ({ ...structuredClone(record), [k]: v })),
  );

/** The fields a copy may differ in: every field of the record but its key (snapshot/fields.ts). */
const valuesOf = (list: Record<string, FieldSpec>): string[] => fieldsOf(list).filter(([, f]) => f.type !== 'key').map(([k]) => k);
const NETWORK_VALUES = valuesOf(NETWORK_FIELDS);
const COIN_VALUES = valuesOf(COIN_FIELDS);
const TICKER_VALUES = valuesOf(TICKER_FIELDS);

/** The answer with copies inserted: of whole coins, and of networks inside coins, at any position. */
const withCopies = (coins: Json[]): fc.Arbitrary<Json[]> =>
  fc
    .tuple(
      fc.array(fc.tuple(fc.nat(coins.length - 1), fc.nat(coins.length)), { minLength: 0, maxLength: 3 }),
      fc.array(fc.tuple(fc.nat(coins.length - 1), fc.nat(10), fc.nat(10)), { minLength: 0, maxLength: 3 }),
    )
    .chain(([coinCopies, netCopies]) => {
      const coinArbs = coinCopies.map(([from, to]) => copyOf(coins[from] as Json, COIN_VALUES).map((copy) => ({ copy, to })));
      const netArbs = netCopies.map(([c, from, to]) => {
        const nets = (coins[c] as Json).networkList as Json[];
        return copyOf(nets[from % nets.length] as Json, NETWORK_VALUES).map((copy) => ({ c, copy, to }));
      });
      return fc.tuple(fc.tuple(...coinArbs), fc.tuple(...netArbs)).map(([coinIns, netIns]) => {
        const out = structuredClone(coins);
        for (const { c, copy, to } of netIns) {
          const nets = (out[c] as Json).networkList as Json[];
          nets.splice(to % (nets.length + 1), 0, copy);
        }
        for (const { copy, to } of coinIns) out.splice(to % (out.length + 1), 0, copy);
        return out;
      });
    });

function coinsSnapshot(body: unknown): Snapshot {
  return applyCoins(emptySnapshot('main'), decodeCoins(body), 1);
}

describe('duplicates never produce a change', () => {
  it('coins and networks: not when the copies come, not when they go', () => {
    fc.assert(
      fc.property(coinList.chain((coins) => fc.tuple(fc.constant(coins), withCopies(coins))), ([clean, dup]) => {
        const prev = coinsSnapshot(clean);
        const withDup = applyCoins(prev, decodeCoins(dup, prev.coins), 2);
        expect(diff(prev, withDup)).toEqual([]);
        const gone = applyCoins(withDup, decodeCoins(clean, withDup.coins), 3);
        expect(diff(withDup, gone)).toEqual([]);
      }),
      { numRuns: 1500 },
    );
  });

  it('on a first snapshot, a duplicated record is never read as closed, nor as added when the copies go', () => {
    fc.assert(
      fc.property(coinList.chain((coins) => fc.tuple(fc.constant(coins), withCopies(coins))), ([clean, dup]) => {
        const cleanSnap = coinsSnapshot(clean);
        const first = coinsSnapshot(dup);
        for (const [coin, c] of first.coins) {
          for (const n of c.networkList) {
            const truth = cleanSnap.coins.get(coin)?.networkList.find((x) => x.network === n.network);
            expect(n).toEqual(truth);
          }
        }
        // And when the copies go, nothing reads as listed or added.
        expect(diff(first, applyCoins(first, decodeCoins(clean, first.coins), 2))).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it('tickers: not when the copies come, not when they go', () => {
    const ticker = (symbol: string): fc.Arbitrary<Json> =>
      fc.record({ symbol: fc.constant(symbol), lastPrice: fee, openPrice: fee, bidPrice: fee, askPrice: fee, volume: fee, count: fc.constantFrom(1, 2) });
    const tickers = fc.subarray(['BTCUSDT', 'ETHUSDT', 'SOLUSDT'], { minLength: 1 }).chain((s) => fc.tuple(...s.map(ticker)));
    const arb = tickers.chain((clean) =>
      fc.tuple(
        fc.constant(clean),
        fc.array(fc.tuple(fc.nat(clean.length - 1), fc.nat(clean.length)), { maxLength: 3 }).chain((ins) =>
          fc.tuple(...ins.map(([from, to]) => copyOf(clean[from] as Json, TICKER_VALUES).map((copy) => ({ copy, to })))),
        ),
      ),
    );
    fc.assert(
      fc.property(arb, ([clean, ins]) => {
        const dup = structuredClone(clean);
        for (const { copy, to } of ins) dup.splice(to % (dup.length + 1), 0, copy);
        const prev = applyTickers(emptySnapshot('main'), decodeTickers(clean), 1);
        const withDup = applyTickers(prev, decodeTickers(dup, prev.tickers), 2);
        expect(diff(prev, withDup)).toEqual([]);
        for (const [symbol, t] of withDup.tickers) expect(t).toEqual(prev.tickers.get(symbol));
        const gone = applyTickers(withDup, decodeTickers(clean, withDup.tickers), 3);
        expect(diff(withDup, gone)).toEqual([]);
        // Copies on the first answer: unknown, then known without a `symbol_listed`.
        const firstDup = applyTickers(emptySnapshot('main'), decodeTickers(dup), 1);
        expect(diff(firstDup, applyTickers(firstDup, decodeTickers(clean, firstDup.tickers), 2))).toEqual([]);
      }),
      { numRuns: 1500 },
    );
  });
});
