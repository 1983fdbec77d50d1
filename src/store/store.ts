import { accessSync, constants, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Alert } from '../alerts/alert';
import type { LogEntry } from '../alerts/dedup';
import type { Silence } from '../alerts/silence';
import type { Delivery } from '../notify/notifier';
import type { SymbolHistory } from '../rules/history';
import type { Change } from '../snapshot/changes';
import type { Snapshot } from '../snapshot/model';
import { isChangeKindColumn, parseRow, readChangeValue, ROW_SCHEMAS } from './rows';
import { errorMessage } from '../lib/error-message';
import { Checkpointer } from './checkpoint';

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

const SCHEMA_VERSION = 4;

/**
 * Unreadable rows found at open (or at a later read) beyond which the damage is taken as wider
 * than a few rows: the whole file is moved aside, as for a file SQLite cannot read.
 */
const WIDE_DAMAGE_ROWS = 100;

/** Told once per open, or per read that found any, of the rows set aside, by table. */
export type SetAsideHook = (rows: Readonly<Record<string, number>>) => void;

/** A delivery held in memory while the store could not be written, written back when it can. */
export interface HeldDelivery {
  receiver: string;
  delivery: Delivery;
  createdAt: number;
  attempts: number;
  nextAt: number;
  state: 'pending' | 'dead';
  error: string | null;
  finishedAt: number | null;
}

/** What became of a delivery of the outbox while the store could not be written. */
export interface OutboxMark {
  id: number;
  state: 'done' | 'retry' | 'dead';
  attempts: number;
  nextAt: number;
  error: string;
  at: number;
}

/** Everything a failing store could not take at once: written back in one transaction. */
export interface HeldWrites {
  deliveries: readonly HeldDelivery[];
  log: readonly { receiver: string; groupKey: string; entry: LogEntry | undefined }[];
  unpend: readonly number[];
  marks: readonly OutboxMark[];
}

/** A snapshot part's records, in the order its stored body lists them. */
export function snapshotRecords(snapshot: Snapshot, part: 'coins' | 'tickers'): object[] {
  return part === 'coins' ? [...snapshot.coins.values()] : [...snapshot.tickers.values()];
}

/** A delivery and log entry to commit (see StateStore.commitDeliveries). */
export interface CommitDelivery {
  receiver: string;
  groupKey: string;
  delivery: Delivery | undefined;
  entry: LogEntry | undefined;
  notificationJson?: string;
}

/** A delivery committed by this process, and its notification as JSON. */
interface Committed {
  delivery: Delivery;
  json: string;
}

/** Characters of committed notifications kept at hand for the senders at most (about 64 MB). */
const COMMITTED_CHARS = 32_000_000;

/** An outbox row's body: the Delivery as JSON, its notification already serialized. */
function deliveryBody(notificationJson: string, idempotencyKey: string): string {
  return `{"notification":${notificationJson},"idempotencyKey":${JSON.stringify(idempotencyKey)}}`;
}

/** The WAL size past which it is folded into the database file (SQLite's own default: 1,000 pages). */
const CHECKPOINT_WAL_BYTES = 4_000_000;
/** How often writes outside a transaction are checked for a checkpoint. */
const CHECKPOINT_EVERY_MS = 1_000;

/** The store cannot be used at all (its directory is missing rights, say): a clear error at start. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
}

/**
 * The daemon's state on disk: the last snapshot of each exchange, the active alerts, the
 * ticker samples the windows need, and the history of changes. SQLite in WAL mode: every
 * write is a transaction, so a crash (kill -9) leaves the last committed state. A file that
 * cannot be read as a database is moved aside (never silently dropped) and a fresh one made.
 *
 * Every JSON body read back is validated (rows.ts): a row that is not what was written (a few
 * overwritten bytes pass quick_check) is set aside into the table `set_aside`, kept for a
 * look, and the rest of the state is used. State rows are checked once at open (the change
 * history as it is read); more than WIDE_DAMAGE_ROWS unreadable rows (or more than ten that
 * are a tenth of all) is damage wider than a few rows, and the file is moved aside as a
 * corrupt one.
 *
 * Contract: every method is synchronous and either commits fully or throws; `onProblem` hears
 * about a store that had to be moved aside, `onSetAside` about rows set aside (once per open
 * or read, never once per row).
 */
export class StateStore {
  private readonly db: Database.Database;
  /** Deliveries committed by this process and not yet finished, by outbox id (see dueDeliveries). */
  private readonly committed = new Map<number, Committed>();
  private committedChars = 0;

  /** A look at the WAL's size asked for, in a turn of its own (see checkpointSoon). */
  private checkpoint: NodeJS.Immediate | undefined;
  private readonly checkpointer: Checkpointer;
  /** Writes outside transaction() (outbox marks, prunes) are folded in by this timer. */
  private readonly checkpointTimer: NodeJS.Timeout;

  private constructor(
    db: Database.Database,
    private readonly onSetAside: SetAsideHook = () => undefined,
  ) {
    this.db = db;
    this.checkpointer = new Checkpointer(db.name);
    this.checkpointTimer = setInterval(() => this.checkpointSoon(), CHECKPOINT_EVERY_MS);
    this.checkpointTimer.unref();
  }

  /**
   * SQLite's own checkpoint runs inside the commit that fills the WAL past 1,000 pages: a
   * storm's 3-4 MB writes paid 50-70 ms more in their commit. It is off (openChecked), and done
   * here instead, passively, in a worker thread (checkpoint.ts), once the WAL is past
   * CHECKPOINT_WAL_BYTES. A crash in between loses nothing: the WAL is the committed state.
   */
  private checkpointSoon(): void {
    this.checkpoint ??= setImmediate(() => {
      this.checkpoint = undefined;
      if (!this.db.open) return;
      const wal = statSync(`${this.db.name}-wal`, { throwIfNoEntry: false })?.size ?? 0;
      if (wal >= CHECKPOINT_WAL_BYTES) this.checkpointer.start();
    });
  }

  static open(dir: string, onProblem: (message: string, movedTo: string) => void = () => undefined, onSetAside?: SetAsideHook): StateStore {
    const file = join(dir, 'spotwatch.db');
    try {
      mkdirSync(dir, { recursive: true });
      accessSync(dir, constants.W_OK);
    } catch (err) {
      throw new StoreError(`cannot use state_dir ${dir}: ${String((err as { code?: unknown })?.code ?? (err as { message?: unknown })?.message ?? err)} (it must be a writable directory)`);
    }
    try {
      return StateStore.swept(openChecked(file), onSetAside);
    } catch (err) {
      if (!existsSync(file)) throw err;
      const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(file, aside);
      for (const ext of ['-wal', '-shm']) if (existsSync(file + ext)) renameSync(file + ext, aside + ext);
      // Duck-typed: the driver's errors may come from another realm, where instanceof Error fails.
      onProblem(errorMessage(err), aside);
      return new StateStore(openChecked(file), onSetAside);
    }
  }

  /** A store whose every row was read once: few unreadable ones are set aside, more is a corrupt file. */
  private static swept(db: Database.Database, onSetAside: SetAsideHook | undefined): StateStore {
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
    const store = new StateStore(db, onSetAside);
    store.setAside(found);
    return store;
  }

  /**
   * Moves unreadable rows out of the way (into `set_aside`, as their raw columns), so they
   * are neither read again nor lost, and says so once. Never throws: a store that cannot be
   * written keeps them where they are, and every read skips them anyway.
   */
  private setAside(found: ReadonlyMap<string, readonly number[]>): void {
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
  private readable<R extends { rowid: number }, T>(table: string, rows: readonly R[], read: (row: R) => T | undefined): T[] {
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

  close(): void {
    clearInterval(this.checkpointTimer);
    if (this.checkpoint !== undefined) clearImmediate(this.checkpoint);
    this.checkpoint = undefined;
    if (this.db.open) this.db.close();
  }

  /** Runs `fn` in one transaction: all of its writes land, or none. */
  transaction<T>(fn: () => T): T {
    const out = this.db.transaction(fn)();
    this.checkpointSoon();
    return out;
  }

  loadSnapshot(exchange: string): Snapshot | undefined {
    const rows = this.db.prepare('SELECT rowid AS rowid, part, taken_at, body FROM snapshots WHERE exchange = ?').all(exchange) as { rowid: number; part: string; taken_at: number; body: string }[];
    // A damaged part is dropped whole: a part missing one record would report it as listed again.
    const parts = this.readable('snapshots', rows, (r) => (readSnapshotRow(r) ? r : undefined));
    if (parts.length === 0) return undefined;
    const s: Snapshot = { exchange, coinsAt: null, tickersAt: null, coins: new Map(), tickers: new Map() };
    for (const r of parts) {
      if (r.part === 'coins') {
        const coins = parseRow(ROW_SCHEMAS.coins, r.body) ?? [];
        Object.assign(s, { coinsAt: r.taken_at, coins: new Map(coins.map((c) => [c.coin, c])) });
      } else if (r.part === 'tickers') {
        const tickers = parseRow(ROW_SCHEMAS.tickers, r.body) ?? [];
        Object.assign(s, { tickersAt: r.taken_at, tickers: new Map(tickers.map((t) => [t.symbol, t])) });
      }
    }
    return s;
  }

  /**
   * Writes one part of a snapshot. `body`, when given, is the part's records as JSON, exactly
   * as JSON.stringify(snapshotRecords(snapshot, part)) (serialized beforehand, in turns).
   */
  saveSnapshot(snapshot: Snapshot, part: 'coins' | 'tickers', body: string = JSON.stringify(snapshotRecords(snapshot, part))): void {
    const at = part === 'coins' ? snapshot.coinsAt : snapshot.tickersAt;
    if (at === null) return;
    this.db
      .prepare('INSERT INTO snapshots (exchange, part, taken_at, body) VALUES (?, ?, ?, ?) ON CONFLICT (exchange, part) DO UPDATE SET taken_at = excluded.taken_at, body = excluded.body')
      .run(snapshot.exchange, part, at, body);
  }

  loadAlerts(): Map<string, Alert> {
    const rows = this.db.prepare('SELECT rowid AS rowid, body FROM alerts').all() as { rowid: number; body: string }[];
    const alerts = new Map<string, Alert>();
    for (const a of this.readable('alerts', rows, (r) => parseRow(ROW_SCHEMAS.alert, r.body))) alerts.set(a.fingerprint, a);
    return alerts;
  }

  /** Replaces the stored active alerts of one exchange. */
  saveAlerts(exchange: string, alerts: Iterable<Alert>): void {
    this.db.prepare('DELETE FROM alerts WHERE exchange = ?').run(exchange);
    const insert = this.db.prepare('INSERT OR REPLACE INTO alerts (fingerprint, exchange, body) VALUES (?, ?, ?)');
    for (const a of alerts) if (a.labels.exchange === exchange) insert.run(a.fingerprint, exchange, JSON.stringify(a));
  }

  /**
   * Writes some of one exchange's active alerts and deletes others by fingerprint, leaving the
   * rest as they are (saveAlerts replaces them all).
   */
  updateAlerts(exchange: string, alerts: Iterable<Alert>, gone: Iterable<string>): void {
    const drop = this.db.prepare('DELETE FROM alerts WHERE fingerprint = ?');
    for (const fp of gone) drop.run(fp);
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
    const sql = `SELECT rowid AS rowid, * FROM changes ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
    const rows = this.db.prepare(sql).all(...args, q.limit) as Record<string, unknown>[];
    return this.readable('changes', rows as (Record<string, unknown> & { rowid: number })[], rowToChange);
  }

  /**
   * When each network of an exchange last closed, per direction (`deposit_disabled` or
   * `withdraw_disabled`), in one query on the index changes_closed. A network closed before the
   * kept history began has no row.
   */
  closedSince(exchange: string): { coin: string; network: string; kind: string; at: number }[] {
    return this.db
      .prepare("SELECT kind, coin, network, MAX(at) AS at FROM changes WHERE exchange = ? AND kind IN ('deposit_disabled', 'withdraw_disabled') AND coin IS NOT NULL AND network IS NOT NULL GROUP BY kind, coin, network")
      .all(exchange) as { coin: string; network: string; kind: string; at: number }[];
  }

  /** How many changes are kept, counted up to `atMost` (a bounded count stays cheap on a long history). */
  countChanges(atMost: number): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM (SELECT 1 FROM changes LIMIT ?)').get(atMost) as { n: number }).n;
  }

  /** Deletes changes older than `cutoff` (ms since epoch); returns how many. */
  pruneChanges(cutoff: number): number {
    return this.db.prepare('DELETE FROM changes WHERE at < ?').run(cutoff).changes;
  }

  // --- Delivery: the outbox and the notification log -------------------------------------------

  /**
   * Deliveries and log entries in one transaction (see PipelinePort.commit). An item's
   * `notificationJson`, when given, is JSON.stringify(delivery.notification), serialized beforehand.
   */
  commitDeliveries(items: readonly CommitDelivery[], now: number, donePending: readonly number[] = []): void {
    // One statement for all of them: a storm's flush retires 8,000 pending rows, one DELETE each took 40 ms.
    const unpend = this.db.prepare('DELETE FROM pending WHERE id IN (SELECT value FROM json_each(?))');
    const insert = this.db.prepare('INSERT INTO outbox (receiver, body, created_at, next_at) VALUES (?, ?, ?, ?)');
    const put = this.db.prepare('INSERT INTO nflog (receiver, group_key, body, at) VALUES (?, ?, ?, ?) ON CONFLICT (receiver, group_key) DO UPDATE SET body = excluded.body, at = excluded.at');
    const drop = this.db.prepare('DELETE FROM nflog WHERE receiver = ? AND group_key = ?');
    const committed: [number, Committed][] = [];
    this.transaction(() => {
      for (const i of items) {
        if (i.delivery !== undefined) {
          const json = i.notificationJson ?? JSON.stringify(i.delivery.notification);
          const id = Number(insert.run(i.receiver, deliveryBody(json, i.delivery.idempotencyKey), now, now).lastInsertRowid);
          committed.push([id, { delivery: i.delivery, json }]);
        }
        if (i.entry === undefined) drop.run(i.receiver, i.groupKey);
        else put.run(i.receiver, i.groupKey, JSON.stringify(i.entry), i.entry.at);
      }
      if (donePending.length > 0) unpend.run(JSON.stringify(donePending));
    });
    for (const [id, c] of committed) this.remember(id, c);
  }

  /** Keeps a committed delivery at hand for its sender, within COMMITTED_CHARS (the oldest go first). */
  private remember(id: number, c: Committed): void {
    this.committed.set(id, c);
    this.committedChars += c.json.length;
    for (const [old, o] of this.committed) {
      if (this.committedChars <= COMMITTED_CHARS) break;
      this.committed.delete(old);
      this.committedChars -= o.json.length;
    }
  }

  private forget(id: number): void {
    const c = this.committed.get(id);
    if (c === undefined) return;
    this.committed.delete(id);
    this.committedChars -= c.json.length;
  }

  /**
   * Alerts handed to the delivery pipeline, kept until their groups are committed to the
   * outbox (commitDeliveries removes them): a crash while they wait in group_wait loses nothing.
   * Returns their ids, in order.
   */
  addPending(alerts: readonly Alert[]): number[] {
    const insert = this.db.prepare('INSERT INTO pending (body) VALUES (?)');
    return this.transaction(() => alerts.map((a) => Number(insert.run(JSON.stringify(a)).lastInsertRowid)));
  }

  loadPending(): { id: number; alert: Alert }[] {
    const rows = this.db.prepare('SELECT rowid AS rowid, id, body FROM pending ORDER BY id').all() as { rowid: number; id: number; body: string }[];
    return this.readable('pending', rows, (r) => {
      const alert = parseRow(ROW_SCHEMAS.alert, r.body);
      return alert === undefined ? undefined : { id: r.id, alert };
    });
  }

  logEntry(receiver: string, groupKey: string): LogEntry | undefined {
    const row = this.db.prepare('SELECT rowid AS rowid, body FROM nflog WHERE receiver = ? AND group_key = ?').get(receiver, groupKey) as { rowid: number; body: string } | undefined;
    return row === undefined ? undefined : this.readable('nflog', [row], (r) => parseRow(ROW_SCHEMAS.logEntry, r.body))[0];
  }

  /**
   * The oldest pending deliveries of a receiver, in order, as long as they are due: a receiver
   * is told in the order things happened, so one waiting for a retry holds back the rest.
   */
  dueDeliveries(receiver: string, now: number, limit: number): OutboxItem[] {
    const rows = this.db
      .prepare("SELECT rowid AS rowid, id, receiver, created_at, attempts, next_at FROM outbox WHERE receiver = ? AND state = 'pending' ORDER BY id LIMIT ?")
      .all(receiver, limit) as { rowid: number; id: number; receiver: string; created_at: number; attempts: number; next_at: number }[];
    const due = [];
    for (const r of rows) {
      if (r.next_at > now) break;
      due.push(r);
    }
    const body = this.db.prepare('SELECT body FROM outbox WHERE id = ?');
    return this.readable('outbox', due, (r) => {
      const item = { id: r.id, receiver: r.receiver, createdAt: r.created_at, attempts: r.attempts, nextAt: r.next_at };
      // Committed by this process: not read back and parsed (a storm's is 3 MB), and its JSON is at hand.
      const c = this.committed.get(r.id);
      if (c !== undefined) return { ...item, delivery: c.delivery, notificationJson: c.json };
      const delivery = parseRow(ROW_SCHEMAS.delivery, (body.get(r.id) as { body: string } | undefined)?.body);
      return delivery === undefined ? undefined : { ...item, delivery };
    });
  }

  /** When the oldest pending delivery of a receiver is due, if any. */
  nextDeliveryAt(receiver: string): number | undefined {
    const row = this.db.prepare("SELECT next_at FROM outbox WHERE receiver = ? AND state = 'pending' ORDER BY id LIMIT 1").get(receiver) as { next_at: number } | undefined;
    return row?.next_at;
  }

  pendingDeliveries(receiver: string): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM outbox WHERE receiver = ? AND state = 'pending'").get(receiver) as { n: number }).n;
  }

  deliveryDone(id: number, now: number): void {
    this.forget(id);
    this.db.prepare("UPDATE outbox SET state = 'done', finished_at = ?, body = '{}' WHERE id = ?").run(now, id);
  }

  deliveryRetry(id: number, attempts: number, nextAt: number, error: string): void {
    this.db.prepare('UPDATE outbox SET attempts = ?, next_at = ?, last_error = ? WHERE id = ?').run(attempts, nextAt, error, id);
  }

  deliveryDead(id: number, attempts: number, error: string, now: number): void {
    this.forget(id);
    this.db.prepare("UPDATE outbox SET state = 'dead', attempts = ?, last_error = ?, finished_at = ? WHERE id = ?").run(attempts, error, now, id);
  }

  /** Dead letters, newest first; `before` (an id) gives the next page. */
  deadLetters(limit: number, before?: number): DeadLetter[] {
    const rows = this.db
      .prepare("SELECT rowid AS rowid, id, receiver, body, created_at, attempts, last_error, finished_at FROM outbox WHERE state = 'dead' AND id < ? ORDER BY id DESC LIMIT ?")
      .all(before ?? Number.MAX_SAFE_INTEGER, limit) as { rowid: number; id: number; receiver: string; body: string; created_at: number; attempts: number; last_error: string | null; finished_at: number | null }[];
    return this.readable('outbox', rows, (r) => {
      const delivery = parseRow(ROW_SCHEMAS.delivery, r.body);
      return delivery === undefined ? undefined : { id: r.id, receiver: r.receiver, delivery, createdAt: r.created_at, attempts: r.attempts, error: r.last_error ?? '', finishedAt: r.finished_at ?? r.created_at };
    });
  }

  /** How many dead letters each receiver has. */
  deadLetterCounts(): Map<string, number> {
    const rows = this.db.prepare("SELECT receiver, COUNT(*) AS n FROM outbox WHERE state = 'dead' GROUP BY receiver").all() as { receiver: string; n: number }[];
    return new Map(rows.map((r) => [r.receiver, r.n]));
  }

  /**
   * Writes back, in one transaction and in order, what was held in memory while the store
   * failed: deliveries (returning their new ids, in order), log entries, pending rows done
   * with, and what became of deliveries already in the outbox.
   */
  writeHeld(held: HeldWrites): number[] {
    const insert = this.db.prepare('INSERT INTO outbox (receiver, body, created_at, attempts, next_at, state, last_error, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const put = this.db.prepare('INSERT INTO nflog (receiver, group_key, body, at) VALUES (?, ?, ?, ?) ON CONFLICT (receiver, group_key) DO UPDATE SET body = excluded.body, at = excluded.at');
    const drop = this.db.prepare('DELETE FROM nflog WHERE receiver = ? AND group_key = ?');
    const unpend = this.db.prepare('DELETE FROM pending WHERE id = ?');
    return this.transaction(() => {
      for (const m of held.marks) {
        if (m.state === 'done') this.deliveryDone(m.id, m.at);
        else if (m.state === 'retry') this.deliveryRetry(m.id, m.attempts, m.nextAt, m.error);
        else this.deliveryDead(m.id, m.attempts, m.error, m.at);
      }
      for (const l of held.log) {
        if (l.entry === undefined) drop.run(l.receiver, l.groupKey);
        else put.run(l.receiver, l.groupKey, JSON.stringify(l.entry), l.entry.at);
      }
      for (const id of held.unpend) unpend.run(id);
      return held.deliveries.map((d) => Number(insert.run(d.receiver, JSON.stringify(d.delivery), d.createdAt, d.attempts, d.nextAt, d.state, d.error, d.finishedAt).lastInsertRowid));
    });
  }

  /** Forgets finished deliveries and stale log entries older than `cutoff`. */
  pruneDeliveries(cutoff: number): void {
    this.db.prepare("DELETE FROM outbox WHERE state = 'done' AND finished_at < ?").run(cutoff);
    this.db.prepare('DELETE FROM nflog WHERE at < ?').run(cutoff);
  }

  // --- Silences ---------------------------------------------------------------------------------

  saveSilence(silence: Silence): void {
    this.db.prepare('INSERT INTO silences (id, body, ends_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body, ends_at = excluded.ends_at').run(silence.id, JSON.stringify(silence), silence.endsAt);
  }

  /** Deletes silences that ended at or before `cutoff`; returns how many. */
  pruneSilences(cutoff: number): number {
    return this.db.prepare('DELETE FROM silences WHERE ends_at <= ?').run(cutoff).changes;
  }

  loadSilences(): Silence[] {
    const rows = this.db.prepare('SELECT rowid AS rowid, body FROM silences ORDER BY ends_at').all() as { rowid: number; body: string }[];
    return this.readable('silences', rows, (r) => parseRow(ROW_SCHEMAS.silence, r.body));
  }

  loadHistory(exchange: string): Map<string, SymbolHistory> | undefined {
    const row = this.db.prepare('SELECT rowid AS rowid, body FROM history WHERE exchange = ?').get(exchange) as { rowid: number; body: string } | undefined;
    if (row === undefined) return undefined;
    const entries = this.readable('history', [row], (r) => parseRow(ROW_SCHEMAS.history, r.body))[0];
    return entries === undefined ? undefined : new Map(entries);
  }

  saveHistory(exchange: string, symbols: ReadonlyMap<string, SymbolHistory>): void {
    this.db
      .prepare('INSERT INTO history (exchange, body) VALUES (?, ?) ON CONFLICT (exchange) DO UPDATE SET body = excluded.body')
      .run(exchange, JSON.stringify([...symbols]));
  }
}

/** A delivery waiting in (or finished with) the outbox. */
export interface OutboxItem {
  id: number;
  receiver: string;
  delivery: Delivery;
  /** JSON.stringify(delivery.notification), when the outbox has it at hand. */
  notificationJson?: string;
  createdAt: number;
  attempts: number;
  /** When it is due (the outbox's own reads give it). */
  nextAt?: number;
}

export interface DeadLetter extends OutboxItem {
  error: string;
  finishedAt: number;
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

function readSnapshotRow(r: { part: unknown; body: unknown }): boolean {
  if (r.part === 'coins') return parseRow(ROW_SCHEMAS.coins, r.body) !== undefined;
  if (r.part === 'tickers') return parseRow(ROW_SCHEMAS.tickers, r.body) !== undefined;
  return true;
}

/**
 * How each table of state is checked at open: true when the row reads back as what was
 * written. The change history is not swept (it may hold millions of rows, and a start must
 * not wait for them): its rows are checked, and set aside, as they are read.
 */
const ROW_CHECKS: Record<string, (row: Record<string, unknown>) => boolean> = {
  snapshots: (r) => readSnapshotRow({ part: r.part, body: r.body }),
  alerts: (r) => parseRow(ROW_SCHEMAS.alert, r.body) !== undefined,
  pending: (r) => parseRow(ROW_SCHEMAS.alert, r.body) !== undefined,
  nflog: (r) => parseRow(ROW_SCHEMAS.logEntry, r.body) !== undefined,
  // A finished delivery keeps no body.
  outbox: (r) => r.state === 'done' || parseRow(ROW_SCHEMAS.delivery, r.body) !== undefined,
  silences: (r) => parseRow(ROW_SCHEMAS.silence, r.body) !== undefined,
  history: (r) => parseRow(ROW_SCHEMAS.history, r.body) !== undefined,
};

function openChecked(file: string): Database.Database {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Checkpoints in a turn of their own (see StateStore.checkpointSoon), not inside a commit.
    db.pragma('wal_autocheckpoint = 0');
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
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
}
