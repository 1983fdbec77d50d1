import type { Alert } from '../alerts/alert';
import type { Endpoint } from '../snapshot/model';
import type { SymbolHistory } from '../rules/history';
import type { Change } from '../snapshot/changes';
import type { CoinRecord, Snapshot } from '../snapshot/model';

/**
 * What the poll path needs of the store (SQLite's StateStore in production, a fake in unit
 * tests). The contract:
 * - `transaction(fn)`: every write made inside `fn` lands, or none does; it throws when the
 *   store refuses the write (a full disk, a read-only file), and the store is then as before.
 * - the writes are idempotent replacements, except `appendChanges`, which appends rows to the
 *   history in the order given;
 * - `saveSnapshot(snapshot, part, bodies)` stores one part (coins or tickers) of an exchange's
 *   snapshot whole, `bodies` being each record of snapshotRecords(snapshot, part) as JSON when
 *   given; `saveCoinsDelta(snapshot, changed, gone)` brings a coins part stored whole before
 *   up to `snapshot`: writes the coins `changed` (`bodies`, when given, each as JSON), deletes
 *   those `gone`; what is stored then reads
 *   back as the whole part would;
 * - `saveAlerts` replaces all of an exchange's stored alerts; `updateAlerts` writes some and
 *   deletes others by fingerprint, leaving the rest;
 * - `loadAlerts` returns what the writes left, also after a restart.
 */
export interface PollStore {
  transaction<T>(fn: () => T): T;
  appendChanges(changes: readonly Change[]): void;
  saveSnapshot(snapshot: Snapshot, part: Endpoint, bodies?: readonly string[]): void;
  saveCoinsDelta(snapshot: Snapshot, changed: readonly CoinRecord[], gone: readonly string[], bodies?: readonly string[]): void;
  saveHistory(exchange: string, symbols: ReadonlyMap<string, SymbolHistory>): void;
  saveAlerts(exchange: string, alerts: Iterable<Alert>): void;
  updateAlerts(exchange: string, alerts: Iterable<Alert>, gone: Iterable<string>): void;
  loadAlerts(): Map<string, Alert>;
}
