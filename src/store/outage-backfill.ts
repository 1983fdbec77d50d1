import type Database from 'better-sqlite3';
import type { Change } from '../snapshot/changes';
import { OUTAGE_KINDS } from '../outages/model';
import { OutageRows } from './outages';

/**
 * Outages from a store that kept changes before it kept outages (migration 5): its changes
 * replayed, oldest first, and watching taken to begin with the oldest change or stored coin list.
 */
export function backfillOutages(db: Database.Database): void {
  const first = db.prepare("SELECT MIN(at) AS at FROM (SELECT MIN(at) AS at FROM changes UNION ALL SELECT MIN(taken_at) FROM snapshots WHERE part = 'coins')").get() as { at: number | null };
  const exchanges = db.prepare("SELECT exchange, MIN(at) AS at FROM (SELECT exchange, MIN(at) AS at FROM changes GROUP BY exchange UNION ALL SELECT exchange, taken_at FROM snapshots WHERE part = 'coins') GROUP BY exchange").all() as { exchange: string; at: number }[];
  if (first.at === null) return;
  const insert = db.prepare('INSERT OR IGNORE INTO watching (exchange, since) VALUES (?, ?)');
  for (const e of exchanges) insert.run(e.exchange, e.at);
  const rows = new OutageRows(db, { lookBack: true });
  const kinds = `(${OUTAGE_KINDS.map((k) => `'${k}'`).join(',')})`;
  const batch: Change[] = [];
  for (const r of db.prepare(`SELECT * FROM changes WHERE kind IN ${kinds} ORDER BY id`).iterate() as IterableIterator<Record<string, unknown>>) {
    if (typeof r.exchange !== 'string' || typeof r.kind !== 'string' || typeof r.at !== 'number') continue;
    let after: unknown = null;
    try {
      after = JSON.parse(String(r.after));
    } catch {
      continue;
    }
    const c = { kind: r.kind, exchange: r.exchange, at: r.at, before: null, after } as Change;
    if (typeof r.coin === 'string') c.coin = r.coin;
    if (typeof r.network === 'string') c.network = r.network;
    batch.push(c);
    if (batch.length >= 1000) rows.applyChanges(batch.splice(0));
  }
  rows.applyChanges(batch);
}
