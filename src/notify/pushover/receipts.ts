import { join } from 'node:path';
import { readJsonIfAny, writeWhole } from '../../lib/whole-file';

/** An emergency Pushover keeps repeating: its receipt, the alerts it is about, and when Pushover gives up on it by itself. */
export interface Receipt {
  receipt: string;
  /** Fingerprints of the emergency alerts still firing: cancelled once none is left. */
  alerts: string[];
  /** Epoch ms: Pushover stops by itself after `expire`; the receipt is forgotten then. */
  expiresAt: number;
}

/** Where the receipts of emergencies still repeating are kept, across restarts. */
export interface ReceiptStore {
  load(): Receipt[];
  save(receipts: readonly Receipt[]): void;
}

/**
 * The receipts in a small JSON file of the state_dir, one per receiver (`pushover-<name>.receipts.json`,
 * a receiver's name being a safe file name): as Telegram's offset file, a file rather than a
 * table, so that the store's schema stays the store's. Written whole (lib/whole-file.ts): a
 * crash leaves the old list or the new one. A file that cannot be read is an empty list (the
 * emergencies it named then stop at their `expire`).
 */
export function receiptFile(stateDir: string, receiver: string): ReceiptStore & { path: string } {
  const path = join(stateDir, `pushover-${receiver}.receipts.json`);
  return {
    path,
    load() {
      const value = readJsonIfAny(path);
      return Array.isArray(value) ? value.filter(isReceipt) : [];
    },
    save(receipts) {
      writeWhole(path, `${JSON.stringify(receipts)}\n`);
    },
  };
}

/** Receipts kept in memory only (no state_dir: `test-notify`). */
export function memoryReceipts(): ReceiptStore {
  let kept: Receipt[] = [];
  return { load: () => kept.map((r) => ({ ...r, alerts: [...r.alerts] })), save: (r) => { kept = r.map((x) => ({ ...x, alerts: [...x.alerts] })); } };
}

function isReceipt(v: unknown): v is Receipt {
  const r = v as Partial<Receipt> | null;
  return typeof r === 'object' && r !== null && typeof r.receipt === 'string' && /^[A-Za-z0-9]{1,64}$/.test(r.receipt)
    && Array.isArray(r.alerts) && r.alerts.every((a) => typeof a === 'string') && typeof r.expiresAt === 'number';
}
