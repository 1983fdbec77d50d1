import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OffsetStore } from './bot-context';

/**
 * The offset in a small file of the state_dir, one per bot (by the bot's id, the part of the
 * token before the colon, which is not secret): `telegram-<id>.offset`, the number as text.
 * A file rather than a table of the SQLite store, so the store's schema stays the store's; the
 * OffsetStore interface is the seam if it moves there. Written whole and renamed into place,
 * so a crash leaves the old offset or the new one, never half of one.
 */
export function offsetFile(stateDir: string, token: string): OffsetStore & { path: string } {
  const path = join(stateDir, `telegram-${token.split(':')[0] ?? 'bot'}.offset`);
  return {
    path,
    load() {
      let text: string;
      try {
        text = readFileSync(path, 'utf8').trim();
      } catch {
        return undefined;
      }
      return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
    },
    save(offset: number) {
      mkdirSync(dirname(path), { recursive: true });
      const tmp = `${path}.tmp`;
      writeFileSync(tmp, `${offset}\n`);
      renameSync(tmp, path);
    },
  };
}
