import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StoreError } from './open';

/** The lock's file in state_dir. */
export const LOCK_FILE = 'spotwatch.lock';

/** Who holds a state_dir: the lock file's content. */
export interface LockHolder {
  pid: number;
  host: string;
  /** When that daemon started (RFC 3339). */
  started: string;
}

/** Who this daemon is, and how it looks at another process. */
export interface LockOwner extends LockHolder {
  /** Whether a process of this host runs under `pid` (process.kill(pid, 0)). */
  alive(pid: number): boolean;
  /** When this process started (ms since epoch): a lock with its pid but older than it is a dead one's whose pid came back (pid 1 in a container). */
  processStartedAt: number;
}

/** Another daemon holds the state_dir (or may: one on another host): the message is the one line the command prints. */
export class StateDirLocked extends Error {
  override readonly name = 'StateDirLocked';
}

/** A state_dir held by this daemon; `release` once it has stopped. */
export interface StateDirLock {
  readonly file: string;
  /** The lock of a daemon that no longer runs, taken over (for the log). */
  readonly tookOver: LockHolder | undefined;
  /** Removes the lock file, if it is still this daemon's. */
  release(): void;
  /**
   * Writes the lock file again when it is gone (the whole state_dir deleted while running, which
   * the store comes back from too): without it a second daemon could start on the same store.
   * `kept` (there, this daemon's), `restored` (written again), or the holder whose lock took its
   * place meanwhile (a daemon started in the gap: nothing to do here but say so).
   */
  keep(): 'kept' | 'restored' | LockHolder;
}

/**
 * Takes `dir`'s lock, so that two daemons never share one state store (each change would be
 * told twice, the history doubled). The file appears whole or not at all (written aside, then
 * hard-linked: a link fails when the name exists), holding `{pid, host, started}`. A lock of
 * this host whose process is gone is taken over (moved aside, checked to be the one judged, so
 * two starters never both take it); one of a process that runs, or of another host (whose
 * processes cannot be seen from here), is a StateDirLocked naming it.
 */
export function acquireStateDirLock(dir: string, owner: LockOwner): StateDirLock {
  const file = join(dir, LOCK_FILE);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new StoreError(`cannot use state_dir ${dir}: ${String((err as { code?: unknown }).code ?? err)} (it must be a writable directory)`);
  }
  const text = `${JSON.stringify({ pid: owner.pid, host: owner.host, started: owner.started } satisfies LockHolder)}\n`;
  let tookOver: LockHolder | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (create(file, text)) {
      return {
        file,
        tookOver,
        release: () => {
          if (read(file) === text) rmSync(file, { force: true });
        },
        keep: () => keep(dir, file, text),
      };
    }
    const found = read(file);
    if (found === undefined) continue; // released meanwhile
    const holder = parse(found);
    if (holder !== undefined && !stale(holder, owner)) throw new StateDirLocked(lockedMessage(dir, file, holder, owner));
    if (moveAside(file, found)) tookOver = holder ?? { pid: 0, host: 'unknown (an unreadable lock file)', started: '' };
  }
  throw new StateDirLocked(`state_dir ${dir} is being locked and unlocked by other spotwatch processes; try again, or remove ${file} if none runs`);
}

function keep(dir: string, file: string, text: string): 'kept' | 'restored' | LockHolder {
  const found = read(file);
  if (found === text) return 'kept';
  if (found === undefined) {
    mkdirSync(dir, { recursive: true });
    if (create(file, text)) return 'restored';
  }
  const now = read(file);
  if (now === text) return 'kept';
  return (now === undefined ? undefined : parse(now)) ?? { pid: 0, host: 'unknown (an unreadable lock file)', started: '' };
}

/** Creates `file` with `text` unless it exists. */
function create(file: string, text: string): boolean {
  const aside = `${file}.${randomBytes(6).toString('hex')}`;
  try {
    writeFileSync(aside, text, { flag: 'wx' });
    linkSync(aside, file);
    return true;
  } catch (err) {
    if ((err as { code?: unknown }).code === 'EEXIST') return false;
    throw new StoreError(`cannot lock state_dir: ${String((err as { code?: unknown }).code ?? err)} at ${file} (it must be a writable directory)`);
  } finally {
    rmSync(aside, { force: true });
  }
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return undefined;
    throw err;
  }
}

function parse(text: string): LockHolder | undefined {
  try {
    const v = JSON.parse(text) as Partial<LockHolder>;
    if (typeof v.pid === 'number' && Number.isInteger(v.pid) && v.pid > 0 && typeof v.host === 'string' && typeof v.started === 'string') return { pid: v.pid, host: v.host, started: v.started };
  } catch {
    // not a lock this program wrote whole: taken as stale
  }
  return undefined;
}

/** A lock of this host whose process is gone (or whose pid is now this process's, since before it started). */
function stale(holder: LockHolder, owner: LockOwner): boolean {
  if (holder.host !== owner.host) return false;
  if (holder.pid === owner.pid) return Date.parse(holder.started) < owner.processStartedAt;
  return !owner.alive(holder.pid);
}

/** Moves the stale lock `found` out of the way; false when the file there was another by then (put back). */
function moveAside(file: string, found: string): boolean {
  const aside = `${file}.stale-${randomBytes(6).toString('hex')}`;
  try {
    renameSync(file, aside);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return false;
    throw err;
  }
  const moved = read(aside);
  if (moved !== found) {
    // Another starter took the stale lock over between our read and our move: its lock goes back.
    try {
      linkSync(aside, file);
    } catch {
      // a third one holds it now; either way that one is not ours to remove
    }
  }
  rmSync(aside, { force: true });
  return moved === found;
}

function lockedMessage(dir: string, file: string, holder: LockHolder, owner: LockOwner): string {
  const who = `pid ${holder.pid} on host ${holder.host}, started ${holder.started}`;
  if (holder.host === owner.host) return `state_dir ${dir} is in use by another spotwatch (${who}); stop it first, or give this one another state_dir`;
  return `state_dir ${dir} is locked by a spotwatch on another host (${who}), which cannot be checked from here; if it no longer runs, remove ${file}`;
}

/**
 * Whether a process of this host runs under `pid`: signal 0 checks without sending anything
 * (EPERM: it runs, as another user). A zombie answers signal 0 too: a daemon killed with -9 is
 * one until its parent reaps it (a supervisor restarting it at once, a shell that has not waited
 * yet), and its lock is a dead one's, so Linux's /proc state (Z, X) is asked.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'EPERM') return false;
  }
  return !exited(pid);
}

/** Whether `pid` has exited and is only waiting to be reaped (Linux; elsewhere, never known). */
function exited(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // "pid (comm) state ...": comm may hold spaces and parentheses, the state follows the last ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 1).trim()[0];
  return state === 'Z' || state === 'X';
}

/** This process, as a lock holder: its pid, its host, when it started. */
export function thisProcess(): LockOwner {
  const now = Date.now();
  return { pid: process.pid, host: hostname(), started: new Date(now).toISOString(), alive: processAlive, processStartedAt: now - Math.ceil(process.uptime() * 1000) };
}
