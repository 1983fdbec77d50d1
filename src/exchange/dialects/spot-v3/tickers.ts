/**
 * Tickers (`GET /api/v3/market/ticker/24hr`, spec sections 2.3 and 4.2) into ticker records,
 * one record at a time, as coins.ts.
 */
import { TICKER_FIELDS } from '../../../snapshot/fields';
import { sameTicker } from '../../../snapshot/merge';
import type { TickerRecord } from '../../../snapshot/model';
import { drain, inTurns } from '../../../lib/timer';
import { decodeRecords, TICKERS_PER_TURN, type AnswerMemory, type RecordReader } from '../../decode-records';
import { isObject, keyOf, type Parsed } from '../../read';
import { listOf } from './answer';
import { codecOf } from './records';

const TICKER = codecOf<TickerRecord>('Ticker', TICKER_FIELDS);

const TICKERS: RecordReader<TickerRecord> = {
  entity: 'ticker',
  key: (item) => keyOf(item, 'symbol'),
  read: (item, _key, before) => (before !== undefined && TICKER.same(item, before) ? before : TICKER.read(item, '')),
  same: sameTicker,
  // 3,500 tickers whose prices all moved, read at once, held the loop 15-25 ms.
  perTurn: TICKERS_PER_TURN,
  partIssuesOfFailed: false,
};

/** The list of a tickers answer: a single object (the `symbol=` form) is a list of one, and so is the one-element array some deployments send instead. */
function tickerList(body: unknown): unknown[] {
  return isObject(body) && typeof body.symbol === 'string' ? [body] : listOf(body, 'tickers');
}

/** Tickers; `previous` works as for decodeCoins. */
export function decodeTickers(body: unknown, previous?: ReadonlyMap<string, TickerRecord>): Parsed<TickerRecord> {
  return drain(decodeRecords(TICKERS, tickerList(body), previous));
}

/** decodeTickers in turns of the event loop (1,000 tickers read afresh per turn), `memory` as for decodeCoinsInTurns. */
export function decodeTickersInTurns(body: unknown, previous?: ReadonlyMap<string, TickerRecord>, memory?: AnswerMemory): Promise<Parsed<TickerRecord>> {
  return inTurns(decodeRecords(TICKERS, tickerList(body), previous, memory));
}
