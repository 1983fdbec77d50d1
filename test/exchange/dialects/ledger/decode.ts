/** ledger's answers into the model: `{"ok": true, "data": [...]}` envelopes with bare decimal numbers (a test-only dialect: index.ts). */
import { exactDecimalJson } from '../../../../src/exchange/decimal-text';
import { Refused, type Refusal } from '../../../../src/exchange/dialect';
import { KeyedRecords } from '../../../../src/exchange/duplicates';
import { bool, dec, shapeOf, FieldError, int, isObject, keyOf, reason, requiredStr, ShapeError, str, type Json, type Parsed } from '../../../../src/exchange/read';
import { sameCoin, sameTicker } from '../../../../src/snapshot/merge';
import type { CoinRecord, NetworkRecord, RecordIssue, TickerRecord } from '../../../../src/snapshot/model';

const coinsJson = exactDecimalJson(['fee', 'minimum']);
const tickersJson = exactDecimalJson(['last', 'open', 'volume']);
const timeJson = exactDecimalJson([]);

/** `{"ok": false, "error": {"code", "text"}}` as a Refusal; E_TS is a refused timestamp. */
function refusalOf(body: unknown): Refusal {
  const error = isObject(body) && isObject(body.error) ? body.error : {};
  const out: Refusal = {};
  if (typeof error.code === 'string') out.code = error.code;
  if (typeof error.text === 'string') out.msg = error.text;
  if (error.code === 'E_TS') out.clock = true;
  return out;
}

/** The `data` list of an answer; an `ok: false` answer is the exchange refusing, whatever its status. */
function dataOf(body: unknown, what: string): unknown[] {
  if (isObject(body) && body.ok === false) throw new Refused(refusalOf(body));
  if (isObject(body) && body.ok === true && Array.isArray(body.data)) return body.data;
  throw new ShapeError(`${what}: expected {"ok": true, "data": [...]}, got ${shapeOf(body)}`);
}

/** `btc-usdt` → `BTCUSDT` (dialects.md rule 6). */
function symbolOf(pair: string): string {
  return pair.replace(/[-_/]/g, '').toUpperCase();
}

function readNetwork(o: Json, coin: string): NetworkRecord {
  return {
    network: requiredStr(o, 'chain'),
    coin,
    name: null,
    isDefault: false,
    depositEnable: requiredStr(o, 'canDeposit') === 'yes',
    withdrawEnable: requiredStr(o, 'canWithdraw') === 'yes',
    withdrawFee: dec(o, 'fee'),
    withdrawMin: dec(o, 'minimum'),
    withdrawInternalMin: null,
    withdrawIntegerMultiple: null,
    minConfirm: int(o, 'confirms'),
    withdrawTag: bool(o, 'memo'),
    depositDust: null,
    contractAddress: str(o, 'contract'),
    contractAddressUrl: null,
    depositDesc: null,
    withdrawDesc: null,
  };
}

function readCoin(o: Json): CoinRecord {
  const coin = requiredStr(o, 'asset').toUpperCase();
  if (!Array.isArray(o.chains)) throw new FieldError('chains is not a list');
  const networkList = o.chains.map((n) => {
    if (!isObject(n)) throw new FieldError(`chain is ${shapeOf(n)}, not an object`);
    return readNetwork(n, coin);
  });
  // No coin-level flags: derived from the networks (dialects.md rule 4).
  const all = (flag: 'depositEnable' | 'withdrawEnable'): boolean => networkList.length > 0 && networkList.every((n) => n[flag]);
  return { coin, name: str(o, 'title'), depositAllEnable: all('depositEnable'), withdrawAllEnable: all('withdrawEnable'), networkList };
}

function coinsOf(body: unknown): Parsed<CoinRecord> {
  const coins = new KeyedRecords<CoinRecord>((c) => c.coin, sameCoin);
  const issues: RecordIssue[] = [];
  dataOf(body, 'coins').forEach((item, index) => {
    try {
      if (!isObject(item)) throw new FieldError(`asset is ${shapeOf(item)}, not an object`);
      if (coins.add(readCoin(item)) === 'conflict') issues.push({ entity: 'coin', coin: keyOf(item, 'asset')?.toUpperCase(), index, reason: 'asset appears twice with different values' });
    } catch (err) {
      const coin = keyOf(item, 'asset')?.toUpperCase();
      if (coin !== undefined) coins.setAside(coin);
      issues.push({ entity: 'coin', ...(coin !== undefined && { coin }), index, reason: reason(err) });
    }
  });
  return { records: coins.taken(), issues };
}

function tickersOf(body: unknown): Parsed<TickerRecord> {
  const list = dataOf(body, 'tickers');
  const time = isObject(body) && typeof body.time === 'number' ? body.time : null;
  const tickers = new KeyedRecords<TickerRecord>((t) => t.symbol, sameTicker);
  const issues: RecordIssue[] = [];
  list.forEach((item, index) => {
    try {
      if (!isObject(item)) throw new FieldError(`ticker is ${shapeOf(item)}, not an object`);
      const last = dec(item, 'last');
      if (last === null) throw new FieldError('last is missing');
      tickers.add({
        symbol: symbolOf(requiredStr(item, 'pair')),
        priceChange: null,
        priceChangePercent: null,
        lastPrice: last,
        bidPrice: null,
        bidQty: null,
        askPrice: null,
        askQty: null,
        openPrice: dec(item, 'open'),
        highPrice: null,
        lowPrice: null,
        volume: dec(item, 'volume'),
        quoteVolume: null,
        // Only the snapshot's time: a rolling 24 h window ending then (dialects.md rule 7).
        openTime: time === null ? null : time - 86_400_000,
        closeTime: time,
        count: null,
      });
    } catch (err) {
      issues.push({ entity: 'ticker', index, reason: reason(err) });
    }
  });
  return { records: tickers.taken(), issues };
}

export function decodeCoins(text: string): Parsed<CoinRecord> {
  return coinsOf(coinsJson(text));
}

export function decodeTickers(text: string): Parsed<TickerRecord> {
  return tickersOf(tickersJson(text));
}

export function serverTime(text: string): number {
  const body = timeJson(text);
  if (isObject(body) && typeof body.time === 'number') return body.time;
  throw new ShapeError('time: expected {"ok": true, "time": <ms>}');
}

/** An error answer (not 2xx); 429 asks for a pause. */
export function readRefusal(status: number, text: string): Refusal {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { ...refusalOf(body), ...(status === 429 && { pause: 'rate_limited' as const }) };
}
