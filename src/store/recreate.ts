import { linkSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** What a write to a deleted store file meets once it has been recreated (see recreateFile). */
export const GONE_MESSAGE = 'the state store file was deleted; this connection writes to the new one from its next check';

/** The file at a path, as a connection opened it: a file deleted and made again is another. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

export function identify(file: string): FileIdentity | undefined {
  const st = statSync(file, { throwIfNoEntry: false });
  return st === undefined ? undefined : { dev: st.dev, ino: st.ino };
}

export function sameFile(a: FileIdentity | undefined, b: FileIdentity | undefined): boolean {
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;
}

/** A database's WAL and the WAL's index (shared memory), beside it. */
export const COMPANIONS = ['-wal', '-shm'] as const;

/**
 * Writes what `old` still reads (its file deleted while open: SQLite goes on reading and writing
 * it, and a restart would find nothing) to a new file at its path: every table, row for row, the
 * schema and the AUTOINCREMENT counters, made aside and hard-linked into place (a link fails when
 * the name exists). It runs under `old`'s write lock, and before letting go it fences the deleted
 * file: every write to it fails from then on (GONE_MESSAGE), so no other connection's write lands
 * there unseen after the copy; those connections move to the new file (StateStore.reopen) and
 * write again what they held. Returns the rows copied, or undefined when a file appeared at the
 * path meanwhile (nothing copied, nothing fenced). Throws when the new file cannot be written
 * (a full disk, say): nothing changed, and it can be tried again.
 *
 * `own` is the file `old` opened: still at the path when only its WAL or the WAL's index was
 * deleted (StateStore.fileState: `wal-gone`). The connections go on with the deleted WAL, whose
 * frames (every write since the last checkpoint) a new connection or a restart never sees, so the
 * new file takes that one's place (renamed over it) the same way.
 */
export function recreateFile(old: Database.Database, own?: FileIdentity): number | undefined {
  const file = old.name;
  old.exec('BEGIN IMMEDIATE');
  let committed = false;
  try {
    const at = identify(file);
    if (at !== undefined && !sameFile(at, own)) return undefined;
    // The whole state_dir may have gone with the file.
    mkdirSync(dirname(file), { recursive: true });
    const aside = `${file}.recreating-${process.pid}`;
    rmSync(aside, { force: true });
    let rows = 0;
    try {
      rows = copy(old, aside);
      // The new file must not meet the old one's WAL or index at the path: SQLite would take their pages for its own.
      for (const ext of COMPANIONS) rmSync(`${file}${ext}`, { force: true });
      if (at === undefined) linkSync(aside, file);
      else renameSync(aside, file);
    } finally {
      rmSync(aside, { force: true });
    }
    const tables = old.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    for (const table of tables) {
      for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
        old.exec(`CREATE TRIGGER IF NOT EXISTS "gone_${table}_${op.toLowerCase()}" BEFORE ${op} ON "${table}" BEGIN SELECT RAISE(ABORT, '${GONE_MESSAGE}'); END`);
      }
    }
    old.exec('COMMIT');
    committed = true;
    return rows;
  } finally {
    if (!committed && old.inTransaction) old.exec('ROLLBACK');
  }
}

/** Copies `from`'s schema and rows into a new database file `to` (rollback journal: one file, until it is opened as the store); the rows copied. */
function copy(from: Database.Database, to: string): number {
  const fresh = new Database(to);
  try {
    const schema = from.prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'gone\\_%' ESCAPE '\\' ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END").all() as { type: string; name: string; sql: string }[];
    let rows = 0;
    fresh.transaction(() => {
      // Tables, their rows, then the indexes (built once over the rows: several times faster than kept up row by row).
      for (const s of schema) if (s.type === 'table') fresh.exec(s.sql);
      for (const { name } of schema.filter((s) => s.type === 'table')) {
        const cols = (from.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(name) as string[]).map((c) => `"${c}"`);
        const insert = fresh.prepare(`INSERT INTO "${name}" (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
        for (const row of from.prepare(`SELECT ${cols.join(', ')} FROM "${name}"`).raw().iterate() as IterableIterator<unknown[]>) {
          insert.run(row);
          rows++;
        }
      }
      for (const s of schema) if (s.type !== 'table') fresh.exec(s.sql);
      const sequence = from.prepare("SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'").get();
      if (sequence !== undefined) {
        fresh.exec('DELETE FROM sqlite_sequence');
        const put = fresh.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)');
        for (const s of from.prepare('SELECT name, seq FROM sqlite_sequence').all() as { name: string; seq: number }[]) put.run(s.name, s.seq);
      }
    })();
    fresh.pragma(`user_version = ${Number(from.pragma('user_version', { simple: true }))}`);
    return rows;
  } finally {
    fresh.close();
  }
}
