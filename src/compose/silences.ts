import { silenceKept, type Silence } from '../alerts/silence';
import type { StateStore } from '../store/store';

export interface StoredSilencesDeps {
  store(): Pick<StateStore, 'loadSilences' | 'saveSilence'> | undefined;
  now(): number;
  onStoreError(err: unknown): void;
  /** A silence was saved: put it in force (the notification path re-reads the silences). */
  inForce(): void;
}

/** The silences of the API and of chat bots: `list` gives the stored ones still kept; `save` stores one (throwing when the store cannot be written) and puts it in force at once. */
export function storedSilences(deps: StoredSilencesDeps): { list(): Silence[]; save(silence: Silence): void } {
  return {
    list: () => (deps.store()?.loadSilences() ?? []).filter((x) => silenceKept(x, deps.now())),
    save: (silence) => {
      try {
        deps.store()?.saveSilence(silence);
      } catch (err) {
        deps.onStoreError(err);
        throw err;
      }
      deps.inForce();
    },
  };
}
