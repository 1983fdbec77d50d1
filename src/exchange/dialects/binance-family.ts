/**
 * What Binance and MEXC share in reading answers (dialects.md section 2: MEXC is "Binance-like,
 * with its own differences"): the `{"code","msg"}` error body, the 429/418 answers, the
 * bare-array capital-config answer and the 24 h ticker. Each dialect's folder says the rest: its
 * signing, its codes, its field differences.
 */
import type { CoinRecord, TickerRecord } from '../../snapshot/model';
import { Refused, type Refusal } from '../dialect';
import { percentAsRatio } from '../derived-decimals';
import { specSymbol } from '../derived';
import { dec, FieldError, int, isObject, keyOf, requiredStr, shapeOf, ShapeError, type Json, type Parsed } from '../read';
import { errorJson, refusalOf } from '../refusal';
import { decodeCoinList, decodeTickerList, type CoinReader } from '../signed-dialect';

/** An error answer: `{"code","msg"}`; 429 too many requests, 418 an IP ban (both with Retry-After); `clockCodes` refuse the timestamp. */
export function readBinanceRefusal(status: number, text: string, clockCodes: readonly string[]): Refusal {
  const out = refusalOf(errorJson(text), ['code'], ['msg']);
  if (status === 429) out.pause = 'rate_limited';
  else if (status === 418) out.pause = 'banned';
  if (out.code !== undefined && clockCodes.includes(out.code)) out.clock = true;
  return out;
}

/** The bare array of an answer; an error body sent with a 2xx status is the exchange refusing (dialects.md rule 8). */
export function arrayOf(body: unknown, what: string): unknown[] {
  if (Array.isArray(body)) return body;
  if (isObject(body) && 'code' in body && 'msg' in body) throw new Refused(refusalOf(body, ['code'], ['msg']));
  throw new ShapeError(`${what}: expected a list, got ${shapeOf(body)}`);
}

/** The capital-config coins: a bare array of `{coin, networkList}` objects. */
export function decodeCapitalConfig(body: unknown, read: CoinReader, previous: ReadonlyMap<string, CoinRecord> | undefined): Parsed<CoinRecord> {
  return decodeCoinList(arrayOf(body, 'coins'), (item) => keyOf(item, 'coin'), read, previous);
}

/** The 24 h tickers: an array (`symbols=` or none), or one object (`symbol=`). */
export function decodeTicker24hr(body: unknown, read: (item: Json) => TickerRecord): Parsed<TickerRecord> {
  return decodeTickerList(isObject(body) && 'symbol' in body ? [body] : arrayOf(body, 'tickers'), read);
}

/** `GET /api/v3/time`: `{"serverTime": <ms>}`. */
export function serverTimeOf(body: unknown): number {
  if (isObject(body) && typeof body.serverTime === 'number') return body.serverTime;
  throw new ShapeError('time: expected {"serverTime": <ms>}');
}

/**
 * One 24 h ticker: Binance sends `priceChangePercent` as a percentage (`"-0.159"` is -0.159 %:
 * the model's is a ratio), MEXC as a ratio already (`"0.0173"`, carried); MEXC sends no `count`.
 */
export function readTicker24hr(o: Json, { percent, count }: { percent: 'percentage' | 'ratio'; count: boolean }): TickerRecord {
  const lastPrice = dec(o, 'lastPrice');
  if (lastPrice === null) throw new FieldError('lastPrice is missing');
  const change = dec(o, 'priceChangePercent');
  return {
    symbol: specSymbol(requiredStr(o, 'symbol')),
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
}
