import { wallSince } from '../lib/time-base';

/**
 * What a receiver was last told about a group (Alertmanager's notification log): the firing
 * and resolved fingerprints and when. Stored, so a restart does not tell it again.
 */
export interface LogEntry {
  firing: string[];
  resolved: string[];
  at: number;
}

export interface Decision {
  send: boolean;
  /** What the log holds afterwards (undefined: drop the entry). */
  entry: LogEntry | undefined;
}

/**
 * Whether a group's current alerts are news for a receiver (Alertmanager's needsUpdate): a
 * firing alert it has not been told of; a resolution of an alert it was told was firing
 * (when it wants resolutions); or the repeat interval passed while something fires. Pure.
 * `sinceTold` is how long ago the entry was written: measured on the monotonic clock when this
 * process wrote it; otherwise from its wall time, where a time ahead of `now` (the clock was set
 * back since) counts as just now: the log then says "told", never "not yet".
 */
export function decide(entry: LogEntry | undefined, firing: readonly string[], resolved: readonly string[], sendResolved: boolean, repeatMs: number, now: number, sinceTold = entry === undefined ? 0 : wallSince(entry.at, now)): Decision {
  const told = new Set(entry?.firing ?? []);
  const toldResolved = new Set(entry?.resolved ?? []);
  const newFiring = firing.some((fp) => !told.has(fp));
  const newResolved = resolved.some((fp) => told.has(fp) && !toldResolved.has(fp));
  const repeat = entry !== undefined && firing.length > 0 && sinceTold >= repeatMs;
  const send = newFiring || repeat || (sendResolved && newResolved);
  if (send) return { send, entry: firing.length > 0 || sendResolved ? { firing: [...firing], resolved: [...resolved], at: now } : undefined };
  // Nothing to tell; still forget alerts that stopped firing, so a new firing is news again.
  if (entry === undefined) return { send: false, entry: undefined };
  if (firing.length === 0) return { send: false, entry: undefined };
  const firingNow = new Set(firing);
  return { send: false, entry: { ...entry, firing: entry.firing.filter((fp) => firingNow.has(fp)) } };
}
