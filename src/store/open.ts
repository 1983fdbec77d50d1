import { accessSync, constants, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { errorMessage } from '../lib/error-message';
import { backfillOutages } from './outage-backfill';
import { OUTAGES_SCHEMA } from './outages';
import { parseRow, ROW_SCHEMAS } from '../storage/rows';
import { bodyText } from './outbox';
import { readSnapshotRecordRow, readSnapshotRow } from './state';

/** The store cannot be used at all (its directory is missing rights, say): a clear error at start. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
}

/** The first of `dir` and its parents that exists (what a failed mkdir ran into). */
function existing(dir: string): string {
  let at = resolve(dir);
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

/**
 * Why `dir` cannot be the state directory, naming the path at fault: a file where a directory
 * must be, a directory without write permission (and who runs spotwatch), a read-only or full
 * file system. Node's code alone (`EEXIST`, `ENOTDIR`) named no cause a user could act on.
 */
function dirProblem(dir: string, err: unknown): string {
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  const at = existing(dir);
  const notDir = existsSync(at) && !statSync(at).isDirectory();
  if (notDir) return at === resolve(dir) ? 'it is a file, not a directory' : `${at} is a file, not a directory`;
  const who = typeof process.getuid === 'function' ? ` (spotwatch runs as uid ${process.getuid()})` : '';
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return at === resolve(dir) ? `no permission to write in it${who}` : `no permission to create it in ${at}${who}`;
    case 'EROFS':
      return `${at} is on a read-only file system`;
    case 'ENOSPC':
      return `no space left on the device of ${at}`;
    default:
      return `${errorMessage(err)} (it must be a writable directory)`;
  }
}

/**
 * 5: outages and when watching began (outages.ts), filled from the kept changes.
 * 6: the coins part of a snapshot one row per coin (snapshot_records); a part stored whole by an
 *    earlier version is read as it is and stored per coin at its next write.
 */
const SCHEMA_VERSION = 6;

/**
 * Unreadable rows found at open (or at a later read) beyond which the damage is taken as wider
 * than a few rows: the whole file is moved aside, as for a file SQLite cannot read.
 */
const WIDE_DAMAGE_ROWS = 100;

/** Unreadable rows found at open, by table: their rowids (to be set aside). */
export type Unreadable = ReadonlyMap<string, readonly number[]>;

/**
 * Opens (or makes) `dir`/spotwatch.db, checked, migrated and swept, and hands it to `make` with
 * the unreadable rows found. A file that cannot be read as a database, or whose damage is wider
 * than a few rows (or that `make` fails on), is moved aside (never silently dropped), said to
 * `onProblem`, and a fresh one made. A directory that cannot be used is a StoreError.
 */
export function openStore<S>(dir: string, onProblem: (message: string, movedTo: string) => void, make: (db: Database.Database, unreadable: Unreadable) => S): S {
  const file = join(dir, 'spotwatch.db');
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new StoreError(`cannot use state_dir ${dir}: ${dirProblem(dir, err)}`);
  }
  try {
    const db = openChecked(file);
    return make(db, sweep(db));
  } catch (err) {
    if (!existsSync(file)) throw err;
    const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(file, aside);
    for (const ext of ['-wal', '-shm']) if (existsSync(file + ext)) renameSync(file + ext, aside + ext);
    // Duck-typed: the driver's errors may come from another realm, where instanceof Error fails.
    onProblem(errorMessage(err), aside);
    return make(openChecked(file), new Map());
  }
}

/**
 * How each table of state is checked at open: true when the row reads back as what was
 * written. The change history is not swept (it may hold millions of rows, and a start must
 * not wait for them): its rows are checked, and set aside, as they are read.
 */
const ROW_CHECKS: Record<string, (row: Record<string, unknown>) => boolean> = {
  snapshots: (r) => readSnapshotRow({ part: r.part, body: r.body }),
  snapshot_records: (r) => readSnapshotRecordRow({ part: r.part, body: r.body }),
  alerts: (r) => parseRow(ROW_SCHEMAS.alert, r.body) !== undefined,
  pending: (r) => parseRow(ROW_SCHEMAS.alert, r.body) !== undefined,
  nflog: (r) => parseRow(ROW_SCHEMAS.logEntry, r.body) !== undefined,
  // A finished delivery keeps no body.
  outbox: (r) => r.state === 'done' || parseRow(ROW_SCHEMAS.delivery, bodyText(r.body)) !== undefined,
  silences: (r) => parseRow(ROW_SCHEMAS.silence, r.body) !== undefined,
  history: (r) => parseRow(ROW_SCHEMAS.history, r.body) !== undefined,
};

/**
 * Every row of state read once: the unreadable ones, by table. More than WIDE_DAMAGE_ROWS (or
 * more than ten that are a tenth of all) is a corrupt file: `db` is closed and this throws.
 */
function sweep(db: Database.Database): Unreadable {
  const found = new Map<string, number[]>();
  let total = 0;
  try {
    for (const [table, check] of Object.entries(ROW_CHECKS)) {
      for (const row of db.prepare(`SELECT rowid AS rowid, * FROM ${table}`).iterate() as IterableIterator<Record<string, unknown>>) {
        total++;
        if (check(row)) continue;
        const ids = found.get(table) ?? [];
        ids.push(row.rowid as number);
        found.set(table, ids);
      }
    }
  } catch (err) {
    db.close();
    throw err;
  }
  const bad = [...found.values()].reduce((n, ids) => n + ids.length, 0);
  if (bad > WIDE_DAMAGE_ROWS || (bad > 10 && bad > total / 10)) {
    db.close();
    throw new Error(`${bad} of ${total} rows unreadable: damage wider than a few rows`);
  }
  return found;
}

/**
 * Opens `file` (made when missing) in WAL mode, checked and migrated; `check: false` when it was
 * just written whole by this daemon (a reopen: quick_check reads every page, seconds on a long history).
 */
export function openChecked(file: string, check = true): Database.Database {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Checkpoints in a turn of their own (see StateStore.checkpointSoon), not inside a commit.
    db.pragma('wal_autocheckpoint = 0');
    db.pragma('busy_timeout = 5000');
    const checked = check ? db.pragma('quick_check', { simple: true }) : 'ok';
    if (checked !== 'ok') throw new Error(`integrity check failed: ${String(checked)}`);
    migrate(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) throw new Error(`state store has schema version ${version}, newer than this spotwatch (${SCHEMA_VERSION})`);
  if (version === SCHEMA_VERSION) return;
  db.exec(`
    CREATE TABLE IF NOT EXISTS snapshots (exchange TEXT NOT NULL, part TEXT NOT NULL, taken_at INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (exchange, part));
    CREATE TABLE IF NOT EXISTS snapshot_records (exchange TEXT NOT NULL, part TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (exchange, part, key));
    CREATE TABLE IF NOT EXISTS alerts (fingerprint TEXT PRIMARY KEY, exchange TEXT NOT NULL, body TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS changes (
      id INTEGER PRIMARY KEY AUTOINCREMENT, exchange TEXT NOT NULL, kind TEXT NOT NULL,
      coin TEXT, network TEXT, symbol TEXT, before TEXT NOT NULL, after TEXT NOT NULL, at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS changes_at ON changes (at);
    CREATE INDEX IF NOT EXISTS changes_coin ON changes (coin, id);
    CREATE INDEX IF NOT EXISTS changes_kind ON changes (kind, id);
    CREATE INDEX IF NOT EXISTS changes_closed ON changes (exchange, kind, coin, network, at);
    CREATE TABLE IF NOT EXISTS history (exchange TEXT PRIMARY KEY, body TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS outbox (
      id INTEGER PRIMARY KEY AUTOINCREMENT, receiver TEXT NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL, state TEXT NOT NULL DEFAULT 'pending',
      last_error TEXT, finished_at INTEGER);
    CREATE INDEX IF NOT EXISTS outbox_due ON outbox (receiver, state, next_at);
    CREATE TABLE IF NOT EXISTS nflog (receiver TEXT NOT NULL, group_key TEXT NOT NULL, body TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (receiver, group_key));
    CREATE TABLE IF NOT EXISTS silences (id TEXT PRIMARY KEY, body TEXT NOT NULL, ends_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS pending (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL);
  `);
  db.transaction(() => {
    db.exec(OUTAGES_SCHEMA);
    if (version > 0 && version < 5) backfillOutages(db);
  })();
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
}
