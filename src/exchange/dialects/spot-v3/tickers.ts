/**
 * Tickers (`GET /api/v3/market/ticker/24hr`, spec sections 2.3 and 4.2) into ticker records,
 * one record at a time, as coins.ts.
 */
import { TICKER_FIELDS } from '../../../snapshot/fields';
import { sameTicker } from '../../../snapshot/merge';
import type { TickerRecord } from '../../../snapshot/model';
import { decodeList, type ListReader } from '../../decode-list';
import { isObject, keyOf, type Parsed } from '../../read';
import { listOf } from './answer';
import { readerOf, sameAsRawOf } from './records';

const readTicker = readerOf<TickerRecord>(TICKER_FIELDS);
const sameTickerAsRaw = sameAsRawOf<TickerRecord>(TICKER_FIELDS);

const TICKERS: ListReader<TickerRecord> = {
  entity: 'ticker',
  key: (item) => keyOf(item, 'symbol'),
  // An unchanged ticker, its previous object without reading it (as coins.ts).
  read: (item, _key, before) => (before !== undefined && sameTickerAsRaw(item, before) ? before : readTicker(item, '')),
  same: sameTicker,
  twice: 'symbol appears twice in the list with different values',
};

/** The list of a tickers answer: a single object (the `symbol=` form) is a list of one, and so is the one-element array some deployments send instead. */
function tickerList(body: unknown): unknown[] {
  return isObject(body) && typeof body.symbol === 'string' ? [body] : listOf(body, 'tickers');
}

/** Tickers; `previous` works as for decodeCoins. */
export function decodeTickers(body: unknown, previous?: ReadonlyMap<string, TickerRecord>): Parsed<TickerRecord> {
  return decodeList(TICKERS, tickerList(body), previous);
}
