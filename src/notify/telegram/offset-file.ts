import { join } from 'node:path';
import { readIfAny, writeWhole } from '../../lib/whole-file';
import type { OffsetStore } from './bot-context';

/**
 * The offset in a small file of the state_dir, one per bot (by the bot's id, the part of the
 * token before the colon, which is not secret): `telegram-<id>.offset`, the number as text.
 * A file rather than a table of the SQLite store, so the store's schema stays the store's; the
 * OffsetStore interface is the seam if it moves there. Written whole (lib/whole-file.ts).
 */
export function offsetFile(stateDir: string, token: string): OffsetStore & { path: string } {
  const path = join(stateDir, `telegram-${token.split(':')[0] ?? 'bot'}.offset`);
  return {
    path,
    load() {
      const text = readIfAny(path)?.trim();
      return text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined;
    },
    save(offset: number) {
      writeWhole(path, `${offset}\n`);
    },
  };
}
