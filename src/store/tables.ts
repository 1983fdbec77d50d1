import type Database from 'better-sqlite3';

/** Told once per open, or per read that found any, of the rows set aside, by table. */
export type SetAsideHook = (rows: Readonly<Record<string, number>>) => void;

/**
 * What every part of the store shares (state.ts, change-history.ts, outbox.ts, silences.ts):
 * the one connection, the one transaction() (StateStore's, which also asks for a checkpoint),
 * and the reading of rows, where a row that does not read back as what was written is set aside.
 */
export class Tables {
  constructor(
    readonly db: Database.Database,
    /** Runs `fn` in one transaction: all of its writes land, or none. */
    readonly transaction: <T>(fn: () => T) => T,
    private readonly onSetAside: SetAsideHook = () => undefined,
  ) {}

  private readonly statements = new Map<string, Database.Statement>();

  /** The statement of `sql`, prepared once for this connection (the outbox's are run by every retry stage's look). */
  prepared(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  /**
   * Moves unreadable rows out of the way (into `set_aside`, as their raw columns), so they
   * are neither read again nor lost, and says so once. Never throws: a store that cannot be
   * written keeps them where they are, and every read skips them anyway.
   */
  setAside(found: ReadonlyMap<string, readonly number[]>): void {
    if (found.size === 0) return;
    const counts: Record<string, number> = {};
    for (const [table, ids] of found) counts[table] = ids.length;
    try {
      this.transaction(() => {
        this.db.exec('CREATE TABLE IF NOT EXISTS set_aside (id INTEGER PRIMARY KEY AUTOINCREMENT, source TEXT NOT NULL, row TEXT NOT NULL, at INTEGER NOT NULL)');
        const keep = this.db.prepare('INSERT INTO set_aside (source, row, at) VALUES (?, ?, ?)');
        for (const [table, ids] of found) {
          const read = this.db.prepare(`SELECT * FROM ${table} WHERE rowid = ?`);
          const drop = this.db.prepare(`DELETE FROM ${table} WHERE rowid = ?`);
          for (const id of ids) {
            keep.run(table, JSON.stringify(read.get(id)), Date.now());
            drop.run(id);
          }
        }
      });
    } catch {
      // Not writable now: the rows stay where they are, and every read skips them.
    }
    this.onSetAside(counts);
  }

  /** Rows read through `read`; those it cannot read are set aside (and said once). */
  readable<R extends { rowid: number }, T>(table: string, rows: readonly R[], read: (row: R) => T | undefined): T[] {
    const out: T[] = [];
    const bad: number[] = [];
    for (const r of rows) {
      const value = read(r);
      if (value === undefined) bad.push(r.rowid);
      else out.push(value);
    }
    if (bad.length > 0) this.setAside(new Map([[table, bad]]));
    return out;
  }
}
