import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Alert } from '../alerts/alert';
import type { SymbolHistory } from '../rules/history';
import type { Change } from '../snapshot/changes';
import type { CoinRecord, Snapshot, TickerRecord } from '../snapshot/model';

/** Filters of the change history (GET /api/v1/changes). */
export interface ChangeQuery {
  exchange?: string;
  since?: number;
  coin?: string;
  network?: string;
  kind?: string;
  /** Return changes with an id below this (the next page of a newest-first listing). */
  before?: number;
  limit: number;
}

export interface StoredChange extends Change {
  id: number;
}

const SCHEMA_VERSION = 1;

/**
 * The daemon's state on disk: the last snapshot of each exchange, the active alerts, the
 * ticker samples the windows need, and the history of changes. SQLite in WAL mode: every
 * write is a transaction, so a crash (kill -9) leaves the last committed state. A file that
 * cannot be read as a database is moved aside (never silently dropped) and a fresh one made.
 *
 * Contract: every method is synchronous and either commits fully or throws; `onProblem` hears
 * about a store that had to be moved aside.
 */
export class StateStore {
  private readonly db: Database.Database;

  private constructor(db: Database.Database) {
    this.db = db;
  }

  static open(dir: string, onProblem: (message: string, movedTo: string) => void = () => undefined): StateStore {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'spotwatch.db');
    try {
      return new StateStore(openChecked(file));
    } catch (err) {
      if (!existsSync(file)) throw err;
      const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(file, aside);
      for (const ext of ['-wal', '-shm']) if (existsSync(file + ext)) renameSync(file + ext, aside + ext);
      onProblem(err instanceof Error ? err.message : String(err), aside);
      return new StateStore(openChecked(file));
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Runs `fn` in one transaction: all of its writes land, or none. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  loadSnapshot(exchange: string): Snapshot | undefined {
    const rows = this.db.prepare('SELECT part, taken_at, body FROM snapshots WHERE exchange = ?').all(exchange) as { part: string; taken_at: number; body: string }[];
    if (rows.length === 0) return undefined;
    const s: Snapshot = { exchange, coinsAt: null, tickersAt: null, coins: new Map(), tickers: new Map() };
    for (const r of rows) {
      if (r.part === 'coins') {
        const coins = JSON.parse(r.body) as CoinRecord[];
        Object.assign(s, { coinsAt: r.taken_at, coins: new Map(coins.map((c) => [c.coin, c])) });
      } else if (r.part === 'tickers') {
        const tickers = JSON.parse(r.body) as TickerRecord[];
        Object.assign(s, { tickersAt: r.taken_at, tickers: new Map(tickers.map((t) => [t.symbol, t])) });
      }
    }
    return s;
  }

  saveSnapshot(snapshot: Snapshot, part: 'coins' | 'tickers'): void {
    const at = part === 'coins' ? snapshot.coinsAt : snapshot.tickersAt;
    if (at === null) return;
    const body = JSON.stringify(part === 'coins' ? [...snapshot.coins.values()] : [...snapshot.tickers.values()]);
    this.db
      .prepare('INSERT INTO snapshots (exchange, part, taken_at, body) VALUES (?, ?, ?, ?) ON CONFLICT (exchange, part) DO UPDATE SET taken_at = excluded.taken_at, body = excluded.body')
      .run(snapshot.exchange, part, at, body);
  }

  loadAlerts(): Map<string, Alert> {
    const rows = this.db.prepare('SELECT body FROM alerts').all() as { body: string }[];
    const alerts = new Map<string, Alert>();
    for (const r of rows) {
      const a = JSON.parse(r.body) as Alert;
      alerts.set(a.fingerprint, a);
    }
    return alerts;
  }

  /** Replaces the stored active alerts of one exchange. */
  saveAlerts(exchange: string, alerts: Iterable<Alert>): void {
    this.db.prepare('DELETE FROM alerts WHERE exchange = ?').run(exchange);
    const insert = this.db.prepare('INSERT OR REPLACE INTO alerts (fingerprint, exchange, body) VALUES (?, ?, ?)');
    for (const a of alerts) if (a.labels.exchange === exchange) insert.run(a.fingerprint, exchange, JSON.stringify(a));
  }

  appendChanges(changes: readonly Change[]): void {
    const insert = this.db.prepare(
      'INSERT INTO changes (exchange, kind, coin, network, symbol, before, after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const c of changes) {
      insert.run(c.exchange, c.kind, c.coin ?? null, c.network ?? null, c.symbol ?? null, JSON.stringify(c.before), JSON.stringify(c.after), c.at);
    }
  }

  /** Changes, newest first. */
  queryChanges(q: ChangeQuery): StoredChange[] {
    const where: string[] = [];
    const args: (string | number)[] = [];
    const add = (sql: string, v: string | number | undefined): void => {
      if (v === undefined) return;
      where.push(sql);
      args.push(v);
    };
    add('exchange = ?', q.exchange);
    add('at >= ?', q.since);
    add('coin = ?', q.coin);
    add('network = ?', q.network);
    add('kind = ?', q.kind);
    add('id < ?', q.before);
    const sql = `SELECT * FROM changes ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
    const rows = this.db.prepare(sql).all(...args, q.limit) as Record<string, unknown>[];
    return rows.map(rowToChange);
  }

  /** Deletes changes older than `cutoff` (ms since epoch); returns how many. */
  pruneChanges(cutoff: number): number {
    return this.db.prepare('DELETE FROM changes WHERE at < ?').run(cutoff).changes;
  }

  loadHistory(exchange: string): Map<string, SymbolHistory> | undefined {
    const row = this.db.prepare('SELECT body FROM history WHERE exchange = ?').get(exchange) as { body: string } | undefined;
    if (row === undefined) return undefined;
    return new Map(JSON.parse(row.body) as [string, SymbolHistory][]);
  }

  saveHistory(exchange: string, symbols: ReadonlyMap<string, SymbolHistory>): void {
    this.db
      .prepare('INSERT INTO history (exchange, body) VALUES (?, ?) ON CONFLICT (exchange) DO UPDATE SET body = excluded.body')
      .run(exchange, JSON.stringify([...symbols]));
  }
}

function rowToChange(r: Record<string, unknown>): StoredChange {
  const c: StoredChange = {
    id: r.id as number,
    kind: r.kind as Change['kind'],
    exchange: r.exchange as string,
    before: JSON.parse(r.before as string) as Change['before'],
    after: JSON.parse(r.after as string) as Change['after'],
    at: r.at as number,
  };
  if (r.coin !== null) c.coin = r.coin as string;
  if (r.network !== null) c.network = r.network as string;
  if (r.symbol !== null) c.symbol = r.symbol as string;
  return c;
}

function openChecked(file: string): Database.Database {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`integrity check failed: ${String(check)}`);
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
    CREATE TABLE IF NOT EXISTS alerts (fingerprint TEXT PRIMARY KEY, exchange TEXT NOT NULL, body TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS changes (
      id INTEGER PRIMARY KEY AUTOINCREMENT, exchange TEXT NOT NULL, kind TEXT NOT NULL,
      coin TEXT, network TEXT, symbol TEXT, before TEXT NOT NULL, after TEXT NOT NULL, at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS changes_at ON changes (at);
    CREATE INDEX IF NOT EXISTS changes_coin ON changes (coin, id);
    CREATE INDEX IF NOT EXISTS changes_kind ON changes (kind, id);
    CREATE TABLE IF NOT EXISTS history (exchange TEXT PRIMARY KEY, body TEXT NOT NULL);
  `);
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
}
