import type { Change } from '../snapshot/changes';
import type { ChangeQuery, StoredChange } from '../storage/port';
import { isChangeKindColumn, readChangeValue } from '../storage/rows';
import type { Tables } from './tables';
import { whereOf } from './where';

/**
 * The history of changes (table `changes`): appended in order, read newest first. It is not
 * swept at open (it may hold millions of rows): its rows are checked, and set aside, as they
 * are read.
 */
export class ChangeHistory {
  constructor(private readonly t: Tables) {}

  appendChanges(changes: readonly Change[]): void {
    const insert = this.t.db.prepare(
      'INSERT INTO changes (exchange, kind, coin, network, symbol, before, after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const c of changes) {
      insert.run(c.exchange, c.kind, c.coin ?? null, c.network ?? null, c.symbol ?? null, JSON.stringify(c.before), JSON.stringify(c.after), c.at);
    }
  }

  /** Changes, newest first. */
  queryChanges(q: ChangeQuery): StoredChange[] {
    const { where, args } = whereOf([
      ['exchange = ?', q.exchange],
      ['at >= ?', q.since],
      ['coin = ?', q.coin],
      ['network = ?', q.network],
      ['symbol = ?', q.symbol],
      ['kind = ?', q.kind],
      ['id < ?', q.before],
    ]);
    const sql = `SELECT rowid AS rowid, * FROM changes ${where} ORDER BY id DESC LIMIT ?`;
    const rows = this.t.db.prepare(sql).all(...args, q.limit) as Record<string, unknown>[];
    return this.t.readable('changes', rows as (Record<string, unknown> & { rowid: number })[], rowToChange);
  }

  /**
   * When each network of an exchange last closed, per direction (`deposit_disabled` or
   * `withdraw_disabled`), in one query on the index changes_closed. A network closed before the
   * kept history began has no row.
   */
  closedSince(exchange: string): { coin: string; network: string; kind: string; at: number }[] {
    return this.t.db
      .prepare("SELECT kind, coin, network, MAX(at) AS at FROM changes WHERE exchange = ? AND kind IN ('deposit_disabled', 'withdraw_disabled') AND coin IS NOT NULL AND network IS NOT NULL GROUP BY kind, coin, network")
      .all(exchange) as { coin: string; network: string; kind: string; at: number }[];
  }

  /** How many changes are kept, counted up to `atMost` (a bounded count stays cheap on a long history). */
  countChanges(atMost: number): number {
    return (this.t.db.prepare('SELECT COUNT(*) AS n FROM (SELECT 1 FROM changes LIMIT ?)').get(atMost) as { n: number }).n;
  }

  /** Deletes changes older than `cutoff` (ms since epoch); returns how many. */
  pruneChanges(cutoff: number): number {
    return this.t.db.prepare('DELETE FROM changes WHERE at < ?').run(cutoff).changes;
  }
}

function rowToChange(r: Record<string, unknown>): StoredChange | undefined {
  const before = readChangeValue(r.before);
  const after = readChangeValue(r.after);
  if (!isChangeKindColumn(r.kind) || before === undefined || after === undefined || typeof r.id !== 'number' || typeof r.exchange !== 'string' || typeof r.at !== 'number') return undefined;
  const c: StoredChange = { id: r.id, kind: r.kind, exchange: r.exchange, before, after, at: r.at };
  for (const key of ['coin', 'network', 'symbol'] as const) {
    const v = r[key];
    if (typeof v === 'string') c[key] = v;
    else if (v !== null) return undefined;
  }
  return c;
}
