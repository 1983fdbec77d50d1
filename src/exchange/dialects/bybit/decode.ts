/**
 * Bybit's answers into the model (dialects.md section 2, "bybit"): the `{"retCode":0,"result"}`
 * envelope (an error may come with HTTP 200), `"1"`/`"0"` flags, `""` for "no value", a ticker
 * with `prevPrice24h` (the change derived) and one top-level `time`.
 */
import type { Refusal } from '../../dialect';
import { Refused } from '../../dialect';
import type { CoinRecord, NetworkRecord, RecordIssue, TickerRecord } from '../../../snapshot/model';
import { difference, stepOfSentPlaces } from '../../derived-decimals';
import { derivedCoinOf, readNetworks, rollingWindow, specSymbol } from '../../derived';
import { dec, FieldError, flagOf, int, isObject, keyOf, requiredStr, shapeOf, ShapeError, str, type Json, type Parsed } from '../../read';
import { refusalOf } from '../../refusal';
import { decodeCoinList, decodeTickerList } from '../../signed-dialect';
import { CLOCK_CODES, RATE_LIMIT_CODES } from './wire';

export function bybitRefusal(body: unknown): Refusal {
  const out = refusalOf(body, ['retCode'], ['retMsg']);
  // `10004 error sign! origin_string[<timestamp><api key><recv window><query>]` echoes the key: kept out of errors and logs.
  if (out.msg !== undefined) out.msg = out.msg.replace(/origin_string\[[^\]]*\]?/g, 'origin_string[<redacted>]');
  if (out.code !== undefined && (RATE_LIMIT_CODES as readonly string[]).includes(out.code)) out.pause = 'rate_limited';
  if (out.code !== undefined && (CLOCK_CODES as readonly string[]).includes(out.code)) out.clock = true;
  return out;
}

/** The envelope's `result`; a `retCode` other than 0 is Bybit refusing, whatever the status. */
function resultOf(body: unknown, what: string): Json {
  if (isObject(body) && body.retCode !== undefined && body.retCode !== 0 && body.retCode !== '0') throw new Refused(bybitRefusal(body));
  if (isObject(body) && isObject(body.result)) return body.result;
  throw new ShapeError(`${what}: expected {"retCode":0,"result":{...}}, got ${shapeOf(body)}`);
}

function listOf(result: Json, key: string, what: string): unknown[] {
  const list = result[key];
  if (Array.isArray(list)) return list;
  throw new ShapeError(`${what}: expected result.${key} to be a list, got ${shapeOf(list)}`);
}

function readNetwork(o: Json, coin: string): NetworkRecord {
  const accuracy = str(o, 'minAccuracy', false);
  return {
    network: requiredStr(o, 'chain'),
    coin,
    name: str(o, 'chainType', false),
    isDefault: null,
    // "1" open, "0" closed; anything else makes the network unknown (its last known value kept), never closed.
    depositEnable: flagOf(o, 'chainDeposit', '1', '0'),
    withdrawEnable: flagOf(o, 'chainWithdraw', '1', '0'),
    withdrawFee: dec(o, 'withdrawFee'),
    withdrawMin: dec(o, 'withdrawMin'),
    withdrawInternalMin: null,
    withdrawIntegerMultiple: stepOfSentPlaces(accuracy),
    minConfirm: o.confirmation === '' ? null : int(o, 'confirmation'),
    withdrawTag: null,
    depositDust: dec(o, 'depositMin'),
    contractAddress: str(o, 'contractAddress', false),
    contractAddressUrl: null,
    depositDesc: null,
    withdrawDesc: null,
  };
}

function readCoin(o: Json, before: CoinRecord | undefined, issues: RecordIssue[]): CoinRecord {
  const coin = requiredStr(o, 'coin');
  if (!Array.isArray(o.chains)) throw new FieldError('chains is not a list');
  return derivedCoinOf(coin, str(o, 'name', false), readNetworks(coin, o.chains, (n) => keyOf(n, 'chain'), (n) => readNetwork(n, coin), issues), before);
}

export function decodeCoins(body: unknown, previous: ReadonlyMap<string, CoinRecord> | undefined): Parsed<CoinRecord> {
  return decodeCoinList(listOf(resultOf(body, 'coins'), 'rows', 'coins'), (item) => keyOf(item, 'coin'), readCoin, previous);
}

export function decodeTickers(body: unknown): Parsed<TickerRecord> {
  const list = listOf(resultOf(body, 'tickers'), 'list', 'tickers');
  // The answer's one `time` is every ticker's (rule 7).
  const window = rollingWindow(isObject(body) ? int(body, 'time') : null);
  return decodeTickerList(list, (o) => {
    const last = dec(o, 'lastPrice');
    if (last === null) throw new FieldError('lastPrice is missing');
    const open = dec(o, 'prevPrice24h');
    return {
      symbol: specSymbol(requiredStr(o, 'symbol')),
      priceChange: difference(last, open),
      priceChangePercent: dec(o, 'price24hPcnt'),
      lastPrice: last,
      bidPrice: dec(o, 'bid1Price'),
      bidQty: dec(o, 'bid1Size'),
      askPrice: dec(o, 'ask1Price'),
      askQty: dec(o, 'ask1Size'),
      openPrice: open,
      highPrice: dec(o, 'highPrice24h'),
      lowPrice: dec(o, 'lowPrice24h'),
      volume: dec(o, 'volume24h'),
      quoteVolume: dec(o, 'turnover24h'),
      ...window,
      count: null,
    };
  });
}

/** `GET /v5/market/time`: the envelope's top-level `time` (ms). */
export function serverTime(body: unknown): number {
  resultOf(body, 'time');
  const time = isObject(body) ? int(body, 'time') : null;
  if (time === null) throw new ShapeError('time: expected a top-level "time"');
  return time;
}
