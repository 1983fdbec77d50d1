import { silenceKept } from '../alerts/silence';
import type { ApiSource } from '../http/api';
import type { StateStore } from '../store/store';

/** The silences as the API keeps them (and the chat bots, through the same validation): list the kept ones, save one. */
export type StoredSilences = ApiSource['silences'];

export interface StoredSilencesDeps {
  store(): Pick<StateStore, 'loadSilences' | 'saveSilence'> | undefined;
  now(): number;
  onStoreError(err: unknown): void;
  /** A silence was saved: put it in force (the notification path re-reads the silences). */
  inForce(): void;
}

/** The silences of the API and of chat bots: `list` gives the stored ones still kept; `save` stores one (throwing when the store cannot be written) and puts it in force at once. */
export function storedSilences(deps: StoredSilencesDeps): StoredSilences {
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
