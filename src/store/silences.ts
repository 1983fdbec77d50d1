import type { Silence } from '../alerts/silence';
import { parseRow, ROW_SCHEMAS } from '../storage/rows';
import type { Tables } from './tables';

/** The silences (table `silences`), kept until they have ended, oldest end first. */
export class SilenceRows {
  constructor(private readonly t: Tables) {}

  saveSilence(silence: Silence): void {
    this.t.db.prepare('INSERT INTO silences (id, body, ends_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body, ends_at = excluded.ends_at').run(silence.id, JSON.stringify(silence), silence.endsAt);
  }

  /** Deletes silences that ended at or before `cutoff`; returns how many. */
  pruneSilences(cutoff: number): number {
    return this.t.db.prepare('DELETE FROM silences WHERE ends_at <= ?').run(cutoff).changes;
  }

  loadSilences(): Silence[] {
    const rows = this.t.db.prepare('SELECT rowid AS rowid, body FROM silences ORDER BY ends_at').all() as { rowid: number; body: string }[];
    return this.t.readable('silences', rows, (r) => parseRow(ROW_SCHEMAS.silence, r.body));
  }
}
