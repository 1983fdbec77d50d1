/**
 * Tickers (`GET /api/v3/market/ticker/24hr`, spec sections 2.3 and 4.2) into ticker records,
 * one record at a time, as coins.ts.
 */
import { TICKER_FIELDS } from '../../../snapshot/fields';
import { sameTicker } from '../../../snapshot/merge';
import type { RecordIssue, TickerRecord } from '../../../snapshot/model';
import { inTurns } from '../../../lib/timer';
import { KeyedRecords } from '../../duplicates';
import { shapeOf, FieldError, isObject, keyOf, reason, type Parsed } from '../../read';
import { listOf } from './answer';
import { codecOf } from './records';

const TICKER = codecOf<TickerRecord>('Ticker', TICKER_FIELDS);

/**
 * Tickers. A single object (the `symbol=` form) is read as a list of one, and so is the
 * one-element array some deployments send instead. `previous` works as for decodeCoins.
 */
export function decodeTickers(body: unknown, previous?: ReadonlyMap<string, TickerRecord>): Parsed<TickerRecord> {
  const steps = tickersInParts(body, previous);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** Tickers read afresh per turn of the event loop by decodeTickersInTurns. */
const TICKERS_PER_TURN = 1_000;

/**
 * decodeTickers, TICKERS_PER_TURN tickers read afresh per turn of the event loop: 3,500
 * tickers whose prices all moved, read at once, held the loop 15-25 ms.
 */
export function decodeTickersInTurns(body: unknown, previous?: ReadonlyMap<string, TickerRecord>): Promise<Parsed<TickerRecord>> {
  return inTurns(tickersInParts(body, previous));
}

/** decodeTickers, pausing (a yield) after every TICKERS_PER_TURN tickers read afresh. */
function* tickersInParts(body: unknown, previous?: ReadonlyMap<string, TickerRecord>): Generator<void, Parsed<TickerRecord>, void> {
  const list = isObject(body) && typeof body.symbol === 'string' ? [body] : listOf(body, 'tickers');
  const tickers = new KeyedRecords<TickerRecord>((t) => t.symbol, sameTicker);
  const issues: RecordIssue[] = [];
  let fresh = 0;
  for (let i = 0; i < list.length; i++) {
    if (fresh >= TICKERS_PER_TURN) {
      fresh = 0;
      yield;
    }
    const item = list[i];
    try {
      if (!isObject(item)) throw new FieldError(`ticker is ${shapeOf(item)}, not an object`);
      const old = typeof item.symbol === 'string' ? previous?.get(item.symbol) : undefined;
      const reuse = old !== undefined && TICKER.same(item, old);
      if (!reuse) fresh += 1;
      const record = reuse ? old : TICKER.read(item, '');
      // Copies that disagree (see exchange/duplicates.ts): neither is taken.
      if (tickers.add(record) === 'conflict') issues.push({ entity: 'ticker', symbol: record.symbol, index: i, reason: 'symbol appears twice in the list with different values' });
    } catch (err) {
      const issue: RecordIssue = { entity: 'ticker', index: i, reason: reason(err) };
      const symbol = keyOf(item, 'symbol');
      if (symbol !== undefined) {
        issue.symbol = symbol;
        tickers.setAside(symbol);
      }
      issues.push(issue);
    }
  }
  return { records: tickers.taken(), issues };
}
