import type Database from 'better-sqlite3';
import type { OutageRow, OutageRowSource } from '../outages/availability';
import type { OutageSpan } from '../outages/model';
import { totalsBySql } from './outage-aggregate';

export { totalsBySql } from './outage-aggregate';

const COLS = 'exchange, coin, network, direction, from_at, began, to_at';

/** The table `outages` as the availability index (outages/availability.ts) reads it. */
export function outageRowSource(db: Database.Database): OutageRowSource {
  const page = db.prepare(`SELECT id, ${COLS} FROM outages WHERE id > ? AND (to_at > ? OR to_at IS NULL) ORDER BY id LIMIT ?`).raw();
  // Two ranges on the indexes outages_to and outages_open (as totalsBySql reads them).
  const held = db.prepare(`SELECT ${COLS} FROM outages WHERE to_at > ? UNION ALL SELECT ${COLS} FROM outages WHERE to_at IS NULL`).raw();
  const byExchange = db.prepare(`SELECT ${COLS} FROM outages WHERE exchange = ?`).raw();
  const byCoin = db.prepare(`SELECT ${COLS} FROM outages WHERE exchange = ? AND coin = ?`).raw();
  const spans = db.prepare('SELECT direction, began, from_at AS "from", to_at AS "to" FROM outages WHERE exchange = ? AND coin = ? AND network = ? AND (to_at > ? OR to_at IS NULL) AND began < ? ORDER BY began, id');
  return {
    page: (afterId, horizon, limit) => page.all(afterId, horizon, limit) as [number, ...OutageRow][],
    held: (horizon) => held.iterate(horizon) as IterableIterator<OutageRow>,
    of: (exchange, coin) => (coin === undefined ? byExchange.iterate(exchange) : byCoin.iterate(exchange, coin)) as IterableIterator<OutageRow>,
    totalsOver: (q) => totalsBySql(db, q),
    spansOver: (exchange, coin, network, start, now) => spans.all(exchange, coin, network, start, now) as OutageSpan[],
  };
}
