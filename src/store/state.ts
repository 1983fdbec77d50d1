import { storedAlert, type Alert } from '../alerts/alert';
import type { NoticeBook } from '../notices/book';
import { bookFromJson, bookToJson, NOTICE_BOOK_JSON } from '../notices/book-json';
import type { SymbolHistory } from '../rules/ticker-samples';
import type { CoinRecord, Snapshot } from '../snapshot/model';
import { parseRow, ROW_SCHEMAS } from '../storage/rows';
import type { Tables } from './tables';

/** A snapshot part's records, in the order its stored body lists them. */
export function snapshotRecords(snapshot: Snapshot, part: 'coins' | 'tickers'): object[] {
  return part === 'coins' ? [...snapshot.coins.values()] : [...snapshot.tickers.values()];
}

/** Whether a row of `snapshots` reads back as what was written (a part of another name is left as it is). */
export function readSnapshotRow(r: { part: unknown; body: unknown }): boolean {
  if (r.part === 'coins') return parseRow(ROW_SCHEMAS.coins, r.body) !== undefined || parseRow(ROW_SCHEMAS.coinRows, r.body) !== undefined;
  if (r.part === 'tickers') return parseRow(ROW_SCHEMAS.tickers, r.body) !== undefined;
  return true;
}

/** Whether a row of `snapshot_records` reads back as what was written (one coin). */
export function readSnapshotRecordRow(r: { part: unknown; body: unknown }): boolean {
  return r.part !== 'coins' || parseRow(ROW_SCHEMAS.coin, r.body) !== undefined;
}

/**
 * The watcher's state (tables `snapshots`, `snapshot_records`, `alerts`, `history`): the last
 * snapshot of each exchange, the active alerts and the ticker samples the windows need. The
 * coins part is stored one row per coin (snapshot_records, its `snapshots` row saying how many),
 * so a poll that changed a few coins writes those rows, not the whole 4-16 MB list
 * (saveCoinsDelta); the tickers part (written once a minute) is one row.
 */
export class StateRows {
  constructor(private readonly t: Tables) {
    // Since notices (no schema version of its own: a table more, made where it is used).
    t.db.exec('CREATE TABLE IF NOT EXISTS notices (exchange TEXT PRIMARY KEY, body TEXT NOT NULL)');
  }

  loadSnapshot(exchange: string): Snapshot | undefined {
    const rows = this.t.db.prepare('SELECT rowid AS rowid, part, taken_at, body FROM snapshots WHERE exchange = ?').all(exchange) as { rowid: number; part: string; taken_at: number; body: string }[];
    // A damaged part is dropped whole: a part missing one record would report it as listed again.
    const parts = this.t.readable('snapshots', rows, (r) => (readSnapshotRow(r) ? r : undefined));
    if (parts.length === 0) return undefined;
    const s: Snapshot = { exchange, coinsAt: null, tickersAt: null, coins: new Map(), tickers: new Map() };
    for (const r of parts) {
      if (r.part === 'coins') {
        const stored = parseRow(ROW_SCHEMAS.coinRows, r.body);
        const coins = stored === undefined ? (parseRow(ROW_SCHEMAS.coins, r.body) ?? []) : this.loadCoinRows(exchange);
        // A coin row missing (set aside as unreadable) drops the part whole, as a damaged body does.
        if (stored !== undefined && coins.length !== stored.records) continue;
        Object.assign(s, { coinsAt: r.taken_at, coins: new Map(coins.map((c) => [c.coin, c])) });
      } else if (r.part === 'tickers') {
        const tickers = parseRow(ROW_SCHEMAS.tickers, r.body) ?? [];
        Object.assign(s, { tickersAt: r.taken_at, tickers: new Map(tickers.map((t) => [t.symbol, t])) });
      }
    }
    return s;
  }

  private loadCoinRows(exchange: string): CoinRecord[] {
    const rows = this.t.db.prepare("SELECT rowid AS rowid, body FROM snapshot_records WHERE exchange = ? AND part = 'coins' ORDER BY rowid").all(exchange) as { rowid: number; body: string }[];
    return this.t.readable('snapshot_records', rows, (r) => parseRow(ROW_SCHEMAS.coin, r.body));
  }

  /**
   * Writes one part of a snapshot whole. `bodies`, when given, are the part's records as JSON,
   * each exactly JSON.stringify of the record of snapshotRecords(snapshot, part) at its index
   * (serialized beforehand, in turns).
   */
  saveSnapshot(snapshot: Snapshot, part: 'coins' | 'tickers', given?: readonly string[]): void {
    const at = part === 'coins' ? snapshot.coinsAt : snapshot.tickersAt;
    if (at === null) return;
    const records = snapshotRecords(snapshot, part);
    const bodies = given ?? records.map((r) => JSON.stringify(r));
    const body = part === 'coins' ? JSON.stringify({ records: bodies.length }) : `[${bodies.join(',')}]`;
    this.putPart(snapshot.exchange, part, at, body);
    if (part !== 'coins') return;
    this.t.db.prepare("DELETE FROM snapshot_records WHERE exchange = ? AND part = 'coins'").run(snapshot.exchange);
    const insert = this.t.db.prepare("INSERT INTO snapshot_records (exchange, part, key, body) VALUES (?, 'coins', ?, ?)");
    for (const [i, c] of (records as CoinRecord[]).entries()) insert.run(snapshot.exchange, c.coin, bodies[i]);
  }

  /**
   * Brings a coins part stored whole before (saveSnapshot) up to `snapshot`: the coins `changed`
   * (new or different) written (`bodies`, when given, are each as JSON), the coins `gone` deleted.
   */
  saveCoinsDelta(snapshot: Snapshot, changed: readonly CoinRecord[], gone: readonly string[], bodies?: readonly string[]): void {
    const { exchange, coinsAt: at } = snapshot;
    if (at === null) return;
    this.putPart(exchange, 'coins', at, JSON.stringify({ records: snapshot.coins.size }));
    const drop = this.t.db.prepare("DELETE FROM snapshot_records WHERE exchange = ? AND part = 'coins' AND key = ?");
    for (const coin of gone) drop.run(exchange, coin);
    const put = this.t.db.prepare("INSERT INTO snapshot_records (exchange, part, key, body) VALUES (?, 'coins', ?, ?) ON CONFLICT (exchange, part, key) DO UPDATE SET body = excluded.body");
    for (const [i, c] of changed.entries()) put.run(exchange, c.coin, bodies?.[i] ?? JSON.stringify(c));
  }

  private putPart(exchange: string, part: 'coins' | 'tickers', at: number, body: string): void {
    this.t.db
      .prepare('INSERT INTO snapshots (exchange, part, taken_at, body) VALUES (?, ?, ?, ?) ON CONFLICT (exchange, part) DO UPDATE SET taken_at = excluded.taken_at, body = excluded.body')
      .run(exchange, part, at, body);
  }

  loadAlerts(): Map<string, Alert> {
    const rows = this.t.db.prepare('SELECT rowid AS rowid, body FROM alerts').all() as { rowid: number; body: string }[];
    const alerts = new Map<string, Alert>();
    for (const a of this.t.readable('alerts', rows, (r) => parseRow(ROW_SCHEMAS.alert, r.body))) alerts.set(a.fingerprint, a);
    return alerts;
  }

  /** Replaces the stored active alerts of one exchange. */
  saveAlerts(exchange: string, alerts: Iterable<Alert>): void {
    this.t.db.prepare('DELETE FROM alerts WHERE exchange = ?').run(exchange);
    const insert = this.t.db.prepare('INSERT OR REPLACE INTO alerts (fingerprint, exchange, body) VALUES (?, ?, ?)');
    for (const a of alerts) if (a.labels.exchange === exchange) insert.run(a.fingerprint, exchange, JSON.stringify(storedAlert(a)));
  }

  /**
   * Writes some of one exchange's active alerts and deletes others by fingerprint, leaving the
   * rest as they are (saveAlerts replaces them all).
   */
  updateAlerts(exchange: string, alerts: Iterable<Alert>, gone: Iterable<string>): void {
    const drop = this.t.db.prepare('DELETE FROM alerts WHERE fingerprint = ?');
    for (const fp of gone) drop.run(fp);
    const insert = this.t.db.prepare('INSERT OR REPLACE INTO alerts (fingerprint, exchange, body) VALUES (?, ?, ?)');
    for (const a of alerts) if (a.labels.exchange === exchange) insert.run(a.fingerprint, exchange, JSON.stringify(storedAlert(a)));
  }

  /** Writes alerts (each under its `exchange` label) and deletes others by fingerprint, leaving the rest as they are. */
  writeAlerts(alerts: Iterable<Alert>, gone: Iterable<string>): void {
    const drop = this.t.db.prepare('DELETE FROM alerts WHERE fingerprint = ?');
    for (const fp of gone) drop.run(fp);
    const insert = this.t.db.prepare('INSERT OR REPLACE INTO alerts (fingerprint, exchange, body) VALUES (?, ?, ?)');
    for (const a of alerts) insert.run(a.fingerprint, a.labels.exchange ?? '', JSON.stringify(storedAlert(a)));
  }

  loadHistory(exchange: string): Map<string, SymbolHistory> | undefined {
    const row = this.t.db.prepare('SELECT rowid AS rowid, body FROM history WHERE exchange = ?').get(exchange) as { rowid: number; body: string } | undefined;
    if (row === undefined) return undefined;
    const entries = this.t.readable('history', [row], (r) => parseRow(ROW_SCHEMAS.history, r.body))[0];
    return entries === undefined ? undefined : new Map(entries);
  }

  saveHistory(exchange: string, symbols: ReadonlyMap<string, SymbolHistory>): void {
    this.t.db
      .prepare('INSERT INTO history (exchange, body) VALUES (?, ?) ON CONFLICT (exchange) DO UPDATE SET body = excluded.body')
      .run(exchange, JSON.stringify([...symbols]));
  }

  /** An exchange's notice book (notices/book.ts), or undefined when none was kept (or its row is unreadable). */
  loadNotices(exchange: string): NoticeBook | undefined {
    const row = this.t.db.prepare('SELECT rowid AS rowid, body FROM notices WHERE exchange = ?').get(exchange) as { rowid: number; body: string } | undefined;
    if (row === undefined) return undefined;
    const json = this.t.readable('notices', [row], (r) => parseRow(NOTICE_BOOK_JSON, r.body))[0];
    return json === undefined ? undefined : bookFromJson(json);
  }

  saveNotices(exchange: string, book: NoticeBook): void {
    this.t.db
      .prepare('INSERT INTO notices (exchange, body) VALUES (?, ?) ON CONFLICT (exchange) DO UPDATE SET body = excluded.body')
      .run(exchange, JSON.stringify(bookToJson(book)));
  }
}
