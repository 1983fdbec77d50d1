import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateStore } from '../../src/store/store';

/** A state store in a fresh temporary directory; `close` closes it and removes the directory. */
export interface TempStore {
  dir: string;
  store: StateStore;
  close(): void;
}

export function openTempStore(prefix = 'spotwatch-store-'): TempStore {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const store = StateStore.open(dir);
  return {
    dir,
    store,
    close: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
