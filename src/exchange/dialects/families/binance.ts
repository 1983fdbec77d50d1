/**
 * What Binance and MEXC share in reading answers (dialects.md section 2: MEXC is "Binance-like,
 * with its own differences"): the `{"code","msg"}` error body, the 429/418 answers, the
 * bare-array capital-config answer and the 24 h ticker. Each dialect's folder says the rest: its
 * signing, its codes, its field differences.
 */
import { percentAsRatio, specSymbol } from '../../derive';
import { Refused, type Refusal } from '../../dialect';
import { keyIn, listIn, type CoinSource, type TickerSource } from './mapped-decode';
import { dec, int, isObject, requiredDec, ShapeError, shapeOf, str } from '../../read';
import { errorJson, refusalOf } from '../../refusal';

/** An error answer: `{"code","msg"}`; 429 too many requests, 418 an IP ban (both with Retry-After); `clockCodes` refuse the timestamp. */
export function readBinanceRefusal(status: number, text: string, clockCodes: readonly string[]): Refusal {
  const out = refusalOf(errorJson(text), ['code'], ['msg']);
  if (status === 429) out.pause = 'rate_limited';
  else if (status === 418) out.pause = 'banned';
  if (out.code !== undefined && clockCodes.includes(out.code)) out.clock = true;
  return out;
}

/** The bare array of an answer; an error body sent with a 2xx status is the exchange refusing (dialects.md rule 8). */
function arrayOf(body: unknown, what: string): unknown[] {
  if (Array.isArray(body)) return body;
  if (isObject(body) && 'code' in body && 'msg' in body) throw new Refused(refusalOf(body, ['code'], ['msg']));
  throw new ShapeError(`${what}: expected a list, got ${shapeOf(body)}`);
}

/** The capital-config coins: a bare array of `{coin, name, networkList}` objects. */
export function capitalConfig(body: unknown): unknown[] {
  return arrayOf(body, 'coins');
}

export const CAPITAL_CONFIG_COIN: Pick<CoinSource, 'coin' | 'name' | 'networks'> = {
  coin: (o) => keyIn(o, 'coin'),
  name: (o) => str(o, 'name'),
  networks: (o) => listIn(o, 'networkList'),
};

/** The 24 h tickers: an array (`symbols=` or none), or one object (`symbol=`). */
export function tickers24hr(body: unknown): { list: unknown[]; time: null } {
  return { list: isObject(body) && 'symbol' in body ? [body] : arrayOf(body, 'tickers'), time: null };
}

/** `GET /api/v3/time`: `{"serverTime": <ms>}`. */
export function serverTimeOf(body: unknown): number {
  if (isObject(body) && typeof body.serverTime === 'number') return body.serverTime;
  throw new ShapeError('time: expected {"serverTime": <ms>}');
}

/**
 * The 24 h ticker: Binance sends `priceChangePercent` as a percentage (`"-0.159"` is -0.159 %:
 * the model's is a ratio), MEXC as a ratio already (`"0.0173"`, carried); MEXC sends no `count`.
 */
export function ticker24hr({ percent, count }: { percent: 'percentage' | 'ratio'; count: boolean }): TickerSource {
  return {
    symbol: (o) => keyIn(o, 'symbol', specSymbol),
    ticker: (o, symbol) => {
      const lastPrice = requiredDec(o, 'lastPrice');
      const change = dec(o, 'priceChangePercent');
      return {
        symbol,
        priceChange: dec(o, 'priceChange'),
        priceChangePercent: change === null || percent === 'ratio' ? change : percentAsRatio(change),
        lastPrice,
        bidPrice: dec(o, 'bidPrice'),
        bidQty: dec(o, 'bidQty'),
        askPrice: dec(o, 'askPrice'),
        askQty: dec(o, 'askQty'),
        openPrice: dec(o, 'openPrice'),
        highPrice: dec(o, 'highPrice'),
        lowPrice: dec(o, 'lowPrice'),
        volume: dec(o, 'volume'),
        quoteVolume: dec(o, 'quoteVolume'),
        // MEXC's are seconds apart, not 24 h: carried as sent (dialects.md).
        openTime: int(o, 'openTime'),
        closeTime: int(o, 'closeTime'),
        count: count ? int(o, 'count') : null,
      };
    },
  };
}
