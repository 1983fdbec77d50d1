import type Database from 'better-sqlite3';
import type { Change } from '../snapshot/changes';
import type { Snapshot } from '../snapshot/model';
import { DIRECTIONS, OUTAGE_CLOSES as CLOSE, OUTAGE_ENDS, OUTAGE_MESSAGES as MESSAGE, OUTAGE_OPENS as OPEN, type Direction, type Outage, type OutageQuery } from '../outages/model';
import { whereOf } from './where';

/** Which outages a write changed: of one coin of an exchange, of a whole exchange, or any. */
export type Touched = (exchange?: string, coin?: string) => void;


/** The tables of outages, made by migration 5 (open.ts). */
export const OUTAGES_SCHEMA = `
  CREATE TABLE IF NOT EXISTS watching (exchange TEXT PRIMARY KEY, since INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS outages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, exchange TEXT NOT NULL, coin TEXT NOT NULL, network TEXT NOT NULL,
    direction TEXT NOT NULL, from_at INTEGER, began INTEGER NOT NULL, to_at INTEGER, messages TEXT NOT NULL DEFAULT '[]');
  CREATE UNIQUE INDEX IF NOT EXISTS outages_open ON outages (exchange, coin, network, direction) WHERE to_at IS NULL;
  CREATE INDEX IF NOT EXISTS outages_began ON outages (began);
  CREATE INDEX IF NOT EXISTS outages_network ON outages (exchange, coin, network, began);
  CREATE INDEX IF NOT EXISTS outages_coin ON outages (coin, began);
  CREATE INDEX IF NOT EXISTS outages_to ON outages (to_at);
`;

/**
 * Outages, kept beside the change history as it is appended (in the same transaction), so
 * they read fast (one indexed range, never a replay of a year of changes) and outlive the
 * retention of changes: an outage whose closing change was pruned keeps its start. Only
 * outages that reopened before the retention cutoff are pruned with the changes.
 *
 * A network closed when watching of its exchange began (the first stored coin list, table
 * `watching`) has an outage with no `from`: not one of known length.
 */
export class OutageRows {
  /** Exchanges whose open outages were checked against a coin list since this process began. */
  private readonly reconciled = new Set<string>();

  private readonly stmt: Record<'open' | 'messagesOf' | 'insertClosed' | 'end' | 'endCoin' | 'endNetwork' | 'endedAt' | 'insertBefore' | 'setMessages' | 'since', Database.Statement>;

  /** The last message change of a direction of a network at or before a time (on the index changes_closed). */
  private readonly lastMessage: Record<Direction, Database.Statement>;

  /**
   * Outages opened since the exchange's coin list was last stored: their first message (the
   * network's message when it closed, perhaps set polls before) is read from that list, in
   * memory, rather than looked up in the history at each closure (a storm closes thousands).
   */
  private readonly fresh = new Map<string, { id: number; coin: string; network: string; direction: Direction }[]>();

  private readonly lookBack: boolean;
  private readonly touched: Touched;

  constructor(
    private readonly db: Database.Database,
    options: {
      /** Look each closure's message up in the kept history (a replay, with no coin lists to read). */
      lookBack?: boolean;
      /** Told of every write that moves an outage's times (the availability index reloads those). */
      touched?: Touched;
    } = {},
  ) {
    this.lookBack = options.lookBack ?? false;
    this.touched = options.touched ?? (() => undefined);
    const last = (d: Direction): Database.Statement =>
      db.prepare(`SELECT kind, after FROM changes WHERE exchange = ? AND kind IN ('${d}_desc_set', '${d}_desc_changed', '${d}_desc_cleared') AND coin = ? AND network = ? AND at <= ? ORDER BY at DESC, id DESC LIMIT 1`);
    this.lastMessage = { deposit: last('deposit'), withdraw: last('withdraw') };
    this.stmt = {
      open: db.prepare('SELECT id, messages FROM outages WHERE exchange = ? AND coin = ? AND network = ? AND direction = ? AND to_at IS NULL'),
      messagesOf: db.prepare('SELECT messages FROM outages WHERE id = ?'),
      insertClosed: db.prepare('INSERT INTO outages (exchange, coin, network, direction, from_at, began, messages) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      end: db.prepare('UPDATE outages SET to_at = MAX(began, ?) WHERE id = ?'),
      endCoin: db.prepare('UPDATE outages SET to_at = MAX(began, ?) WHERE exchange = ? AND coin = ? AND to_at IS NULL'),
      endNetwork: db.prepare('UPDATE outages SET to_at = MAX(began, ?) WHERE exchange = ? AND coin = ? AND network = ? AND to_at IS NULL'),
      endedAt: db.prepare('SELECT 1 FROM outages WHERE exchange = ? AND coin = ? AND network = ? AND direction = ? AND to_at = ?'),
      insertBefore: db.prepare('INSERT INTO outages (exchange, coin, network, direction, from_at, began, to_at) VALUES (?, ?, ?, ?, NULL, ?, ?)'),
      setMessages: db.prepare('UPDATE outages SET messages = ? WHERE id = ?'),
      since: db.prepare('SELECT since FROM watching WHERE exchange = ?'),
    };
  }

  /** Follows appended changes: closures open outages, reopenings end them, messages join them. */
  applyChanges(changes: readonly Change[]): void {
    const { open } = this.stmt;
    for (const c of changes) {
      if (c.coin === undefined) continue;
      if (OUTAGE_ENDS.includes(c.kind)) {
        // Gone, not reopened: the outage ends where watching it ended.
        if (c.kind === 'coin_delisted') this.stmt.endCoin.run(c.at, c.exchange, c.coin);
        else if (c.network !== undefined) this.stmt.endNetwork.run(c.at, c.exchange, c.coin, c.network);
        this.touched(c.exchange, c.coin);
        continue;
      }
      if (c.network === undefined) continue;
      const closing = CLOSE[c.kind];
      const opening = OPEN[c.kind];
      if (closing !== undefined) {
        if (open.get(c.exchange, c.coin, c.network, closing) !== undefined) continue; // seen again after a restart
        this.touched(c.exchange, c.coin);
        const messages = this.lookBack ? this.currentMessage(c.exchange, c.coin, c.network, closing, c.at) : [];
        const id = Number(this.stmt.insertClosed.run(c.exchange, c.coin, c.network, closing, c.at, c.at, JSON.stringify(messages)).lastInsertRowid);
        if (!this.lookBack) {
          const fresh = this.fresh.get(c.exchange) ?? [];
          fresh.push({ id, coin: c.coin, network: c.network, direction: closing });
          this.fresh.set(c.exchange, fresh);
        }
      } else if (opening !== undefined) {
        const row = open.get(c.exchange, c.coin, c.network, opening) as { id: number } | undefined;
        if (row !== undefined) {
          this.stmt.end.run(c.at, row.id);
          this.touched(c.exchange, c.coin);
          continue;
        }
        // No closure seen: closed before watching began (a store from before outages were kept),
        // unless this very reopening was already recorded (appended again after a restart).
        const again = this.stmt.endedAt.get(c.exchange, c.coin, c.network, opening, c.at);
        if (again !== undefined) continue;
        const since = this.watchingSince(c.exchange) ?? c.at;
        this.stmt.insertBefore.run(c.exchange, c.coin, c.network, opening, Math.min(since, c.at), c.at);
        this.touched(c.exchange, c.coin);
      } else if (MESSAGE[c.kind] !== undefined) {
        this.addMessage(c, MESSAGE[c.kind] as Direction);
      }
    }
  }

  /** A message of the exchange set or changed while an outage of its direction lasts joins it. */
  private addMessage(c: Change, direction: Direction): void {
    if (c.coin === undefined || c.network === undefined || typeof c.after !== 'string' || c.after.trim() === '') return;
    const row = this.stmt.open.get(c.exchange, c.coin, c.network, direction) as { id: number; messages: string } | undefined;
    if (row === undefined) return;
    const messages = readMessages(row.messages);
    if (messages.includes(c.after)) return;
    messages.push(c.after);
    this.stmt.setMessages.run(JSON.stringify(messages), row.id);
  }

  /** The exchange's message for a direction of a network as the kept history last set it. */
  private currentMessage(exchange: string, coin: string, network: string, direction: Direction, at: number): string[] {
    const row = this.lastMessage[direction].get(exchange, coin, network, at) as { kind: string; after: string } | undefined;
    if (row === undefined || row.kind.endsWith('_cleared')) return [];
    try {
      const text = JSON.parse(row.after) as unknown;
      return typeof text === 'string' && text.trim() !== '' ? [text] : [];
    } catch {
      return [];
    }
  }

  /**
   * A stored coin list: the first one of an exchange marks when watching it began, and its
   * closed networks open outages from before that. Once per exchange and process, a network
   * closed in the list without an open outage (a store from before outages were kept) gets one
   * from before watching began.
   */
  noteSnapshot(snapshot: Snapshot): void {
    this.firstMessages(snapshot);
    const at = snapshot.coinsAt;
    if (at === null || this.reconciled.has(snapshot.exchange)) return;
    this.reconciled.add(snapshot.exchange);
    this.db.prepare('INSERT OR IGNORE INTO watching (exchange, since) VALUES (?, ?)').run(snapshot.exchange, at);
    const since = this.watchingSince(snapshot.exchange) ?? at;
    const open = new Set(
      (this.db.prepare('SELECT coin, network, direction FROM outages WHERE exchange = ? AND to_at IS NULL').all(snapshot.exchange) as { coin: string; network: string; direction: string }[]).map(
        (r) => `${r.coin}\u0000${r.network}\u0000${r.direction}`,
      ),
    );
    const insert = this.db.prepare('INSERT INTO outages (exchange, coin, network, direction, from_at, began, messages) VALUES (?, ?, ?, ?, NULL, ?, ?)');
    this.touched(snapshot.exchange);
    for (const coin of snapshot.coins.values()) {
      for (const n of coin.networkList) {
        for (const direction of DIRECTIONS) {
          const enabled = direction === 'deposit' ? n.depositEnable : n.withdrawEnable;
          if (enabled !== false || open.has(`${coin.coin}\u0000${n.network}\u0000${direction}`)) continue;
          const desc = direction === 'deposit' ? n.depositDesc : n.withdrawDesc;
          insert.run(snapshot.exchange, coin.coin, n.network, direction, since, JSON.stringify(typeof desc === 'string' && desc.trim() !== '' ? [desc] : []));
        }
      }
    }
  }

  /** The outages opened since the last coin list get the network's message as this list has it, first. */
  private firstMessages(snapshot: Snapshot): void {
    const fresh = this.fresh.get(snapshot.exchange);
    if (fresh === undefined) return;
    this.fresh.delete(snapshot.exchange);
    for (const o of fresh) {
      const n = snapshot.coins.get(o.coin)?.networkList.find((x) => x.network === o.network);
      const desc = o.direction === 'deposit' ? n?.depositDesc : n?.withdrawDesc;
      if (typeof desc !== 'string' || desc.trim() === '') continue;
      const row = this.stmt.messagesOf.get(o.id) as { messages: string } | undefined;
      if (row === undefined) continue;
      const messages = readMessages(row.messages);
      if (!messages.includes(desc)) this.stmt.setMessages.run(JSON.stringify([desc, ...messages]), o.id);
    }
  }

  /** When watching each exchange began (ms). */
  watching(): Map<string, number> {
    const rows = this.db.prepare('SELECT exchange, since FROM watching').all() as { exchange: string; since: number }[];
    return new Map(rows.map((r) => [r.exchange, r.since]));
  }

  private watchingSince(exchange: string): number | undefined {
    return (this.stmt.since.get(exchange) as { since: number } | undefined)?.since;
  }

  /** Outages, newest first (by when they began). */
  queryOutages(q: OutageQuery): Outage[] {
    const { where, args } = whereOf([
      ['exchange = ?', q.exchange],
      ['coin = ?', q.coin],
      ['network = ?', q.network],
      ['direction = ?', q.direction],
      ['(to_at IS NULL OR to_at >= ?)', q.since],
    ]);
    const sql =
      q.ended === true
        ? `SELECT * FROM outages ${where === '' ? 'WHERE' : `${where} AND`} to_at IS NOT NULL ORDER BY to_at DESC, id DESC LIMIT ?`
        : `SELECT * FROM outages ${where} ORDER BY began DESC, id DESC LIMIT ?`;
    return (this.db.prepare(sql).all(...args, q.limit) as Record<string, unknown>[]).flatMap((r) => {
      const o = rowToOutage(r);
      return o === undefined ? [] : [o];
    });
  }

  /** Forgets outages that reopened before `cutoff` (with the changes of that time); ongoing ones stay. */
  prune(cutoff: number): number {
    const n = this.db.prepare('DELETE FROM outages WHERE to_at IS NOT NULL AND to_at < ?').run(cutoff).changes;
    if (n > 0) this.touched();
    return n;
  }
}

function readMessages(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((m): m is string => typeof m === 'string') : [];
  } catch {
    return [];
  }
}

function rowToOutage(r: Record<string, unknown>): Outage | undefined {
  const { id, exchange, coin, network, direction, from_at: from, began, to_at: to } = r;
  if (typeof id !== 'number' || typeof exchange !== 'string' || typeof coin !== 'string' || typeof network !== 'string') return undefined;
  if ((direction !== 'deposit' && direction !== 'withdraw') || typeof began !== 'number') return undefined;
  if ((from !== null && typeof from !== 'number') || (to !== null && typeof to !== 'number')) return undefined;
  return { id, exchange, coin, network, direction, from, began, to, messages: readMessages(r.messages) };
}
