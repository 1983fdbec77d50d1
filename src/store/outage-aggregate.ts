import type Database from 'better-sqlite3';
import type { OutageTotals, TotalsQuery } from '../outages/model';

/**
 * Closed time and outages per network and direction within [start, now] (clipped, as
 * availability is, to when watching began); networks without an outage in it have no row.
 * One aggregate over the indexes outages_to and outages_open: what OutageIndex answers from
 * memory, kept as its definition (the property test holds the two equal).
 */
export function totalsBySql(db: Database.Database, q: TotalsQuery): OutageTotals[] {
  // (+began: a term no index is chosen for, as every outage began before now.)
  const where = ['+began < :now'];
  if (q.exchange !== undefined) where.push('exchange = :exchange');
  if (q.coin !== undefined) where.push('coin = :coin');
  if (q.network !== undefined) where.push('network = :network');
  // The ones that lasted into the window: two ranges, on the indexes outages_to and outages_open
  // (an OR of them would be read as a scan of the whole table).
  const filter = where.join(' AND ');
  // Every outage began no earlier than when watching its exchange began (one from before that
  // begins then), so a window clipped to that start clips each outage as this does.
  const cols = 'exchange, coin, network, direction, from_at, began, to_at';
  const sql = `
    SELECT exchange, coin, network, direction,
      SUM(MAX(0, MIN(COALESCE(to_at, :now), :now) - MAX(began, :start))) AS closedMs,
      COALESCE(SUM(from_at >= :start), 0) AS count,
      COALESCE(SUM(from_at >= :start AND to_at <= :now), 0) AS reopened,
      SUM(CASE WHEN from_at >= :start AND to_at <= :now THEN to_at - from_at ELSE 0 END) AS reopenedMs
    FROM (SELECT ${cols} FROM outages WHERE to_at > :start AND ${filter} UNION ALL SELECT ${cols} FROM outages WHERE to_at IS NULL AND ${filter})
    GROUP BY exchange, coin, network, direction`;
  const params: Record<string, string | number> = { start: q.start, now: q.now };
  if (q.exchange !== undefined) params.exchange = q.exchange;
  if (q.coin !== undefined) params.coin = q.coin;
  if (q.network !== undefined) params.network = q.network;
  return db.prepare(sql).all(params) as OutageTotals[];
}
