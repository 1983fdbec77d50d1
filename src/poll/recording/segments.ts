/**
 * The segment files of a recording directory: `00000042-20250301T120000.000Z.rec.gz`, a
 * sequence number (the order of reading) and the time the segment began (its age, read
 * without opening it). A recording is bounded by deleting whole segments, the oldest first.
 */
import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export interface Segment {
  file: string;
  seq: number;
  /** When its first record was taken (ms since the epoch). */
  startedAt: number;
}

const NAME = /^(\d{8,})-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})\.(\d{3})Z\.rec\.gz$/;

export function segmentName(seq: number, startedAt: number): string {
  return `${String(seq).padStart(8, '0')}-${new Date(startedAt).toISOString().replace(/[-:]/g, '')}.rec.gz`;
}

/** The segment a file name names; undefined for any other file. */
export function segmentOf(dir: string, name: string): Segment | undefined {
  const m = NAME.exec(name);
  if (m === null) return undefined;
  const [, seq, y, mo, d, h, mi, s, ms] = m.map(Number) as number[];
  return { file: join(dir, name), seq: seq as number, startedAt: Date.UTC(y as number, (mo as number) - 1, d, h, mi, s, ms) };
}

/** The segments in `dir`, in order (throws what readdir throws). */
export async function listSegments(dir: string): Promise<Segment[]> {
  const names = await readdir(dir);
  return names.flatMap((n) => segmentOf(dir, n) ?? []).sort((a, b) => a.seq - b.seq);
}

/**
 * Deletes the oldest segments of `dir` but `current` (the one being written) while they hold
 * more than `budget` bytes, and those whose records are all older than `maxAgeMs` (the segment
 * after them began before then). Returns the files deleted.
 */
export async function pruneSegments(dir: string, current: string | undefined, budget: number, maxAgeMs: number, now: number): Promise<string[]> {
  const all = await listSegments(dir);
  const closed = all.filter((s) => s.file !== current);
  const sizes = await Promise.all(closed.map(async (s) => (await stat(s.file).catch(() => undefined))?.size ?? 0));
  let total = sizes.reduce((n, b) => n + b, 0);
  const deleted: string[] = [];
  for (const [i, s] of closed.entries()) {
    const next = all[all.indexOf(s) + 1];
    const old = next !== undefined && next.startedAt <= now - maxAgeMs;
    if (total <= budget && !old) break;
    await unlink(s.file);
    total -= sizes[i] ?? 0;
    deleted.push(s.file);
  }
  return deleted;
}
