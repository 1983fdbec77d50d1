import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { acquireStateDirLock, processAlive, StateDirLocked, type LockOwner } from '../../src/store/lock';
import { waitFor } from '../support/wait';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const STARTED = '2025-03-01T10:00:00.000Z';
/** A daemon of host "desk" with pid 4242, started at STARTED; `running` are the pids that run there. */
function owner(running: number[] = [], o: Partial<LockOwner> = {}): LockOwner {
  return { pid: 4242, host: 'desk', started: STARTED, alive: (pid) => running.includes(pid), processStartedAt: Date.parse(STARTED) - 1_000, ...o };
}
const lockFile = (): string => join(dir, 'spotwatch.lock');
const holder = (o: object): void => writeFileSync(lockFile(), `${JSON.stringify(o)}\n`);

function refusal(o: LockOwner): string {
  try {
    acquireStateDirLock(dir, o);
  } catch (err) {
    expect(err).toBeInstanceOf(StateDirLocked);
    return (err as Error).message;
  }
  throw new Error('the lock was taken');
}

describe('the state_dir lock', () => {
  it('is a file holding the holder: pid, host, when it started; released, it is gone', () => {
    const lock = acquireStateDirLock(join(dir, 'new'), owner());
    expect(readFileSync(join(dir, 'new', 'spotwatch.lock'), 'utf8')).toBe('{"pid":4242,"host":"desk","started":"2025-03-01T10:00:00.000Z"}\n');
    expect(lock.tookOver).toBeUndefined();
    lock.release();
    expect(readdirSync(join(dir, 'new'))).toEqual([]);
  });

  it('refuses a second daemon of the same host while the first runs, naming it in one line', () => {
    acquireStateDirLock(dir, owner());
    expect(refusal(owner([4242], { pid: 5151 }))).toBe(`state_dir ${dir} is in use by another spotwatch (pid 4242 on host desk, started 2025-03-01T10:00:00.000Z); stop it first, or give this one another state_dir`);
    // The first one's lock is left as it was, and nothing else is left behind.
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toEqual({ pid: 4242, host: 'desk', started: STARTED });
    expect(readdirSync(dir)).toEqual(['spotwatch.lock']);
  });

  it('refuses a lock of another host, whose processes it cannot see: the operator removes it', () => {
    holder({ pid: 77, host: 'rack-2', started: '2025-02-01T00:00:00.000Z' });
    expect(refusal(owner())).toBe(`state_dir ${dir} is locked by a spotwatch on another host (pid 77 on host rack-2, started 2025-02-01T00:00:00.000Z), which cannot be checked from here; if it no longer runs, remove ${lockFile()}`);
  });

  it('takes over the lock of a process of this host that is gone, and says whose it was', () => {
    holder({ pid: 77, host: 'desk', started: '2025-02-01T00:00:00.000Z' });
    const lock = acquireStateDirLock(dir, owner([1, 2, 3]));
    expect(lock.tookOver).toEqual({ pid: 77, host: 'desk', started: '2025-02-01T00:00:00.000Z' });
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toEqual({ pid: 4242, host: 'desk', started: STARTED });
    expect(readdirSync(dir)).toEqual(['spotwatch.lock']);
  });

  it('takes over a lock with its own pid from before it started (pid 1 in a container, again), never one from since', () => {
    holder({ pid: 4242, host: 'desk', started: '2025-02-01T00:00:00.000Z' });
    expect(acquireStateDirLock(dir, owner()).tookOver?.pid).toBe(4242);
    // Another daemon of this very process (in-process tests): it runs.
    expect(refusal(owner([], { started: '2025-03-01T10:00:05.000Z' }))).toMatch(/^state_dir .* is in use by another spotwatch \(pid 4242 on host desk/);
  });

  it('takes over a lock file it cannot read (no spotwatch wrote it whole)', () => {
    writeFileSync(lockFile(), 'garbage');
    expect(acquireStateDirLock(dir, owner()).tookOver).toEqual({ pid: 0, host: 'unknown (an unreadable lock file)', started: '' });
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(4242);
  });

  it('releases only its own lock', () => {
    const lock = acquireStateDirLock(dir, owner());
    holder({ pid: 99, host: 'desk', started: STARTED });
    lock.release();
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(99);
  });

  it('is written again when it is gone (the whole state_dir deleted), and then still refuses a second daemon', () => {
    const state = join(dir, 'state');
    const lock = acquireStateDirLock(state, owner());
    expect(lock.keep()).toBe('kept');
    rmSync(state, { recursive: true });
    expect(lock.keep()).toBe('restored');
    expect(readFileSync(join(state, 'spotwatch.lock'), 'utf8')).toBe('{"pid":4242,"host":"desk","started":"2025-03-01T10:00:00.000Z"}\n');
    expect(lock.keep()).toBe('kept');
    expect(() => acquireStateDirLock(state, owner([4242], { pid: 4343 }))).toThrow(StateDirLocked);
    lock.release();
    expect(readdirSync(state)).toEqual([]);
  });

  it('names the daemon that took the state_dir while its lock was gone, and leaves that lock alone', () => {
    const lock = acquireStateDirLock(dir, owner());
    rmSync(lockFile());
    holder({ pid: 4343, host: 'desk', started: STARTED });
    expect(lock.keep()).toEqual({ pid: 4343, host: 'desk', started: STARTED });
    lock.release();
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toEqual({ pid: 4343, host: 'desk', started: STARTED });
  });
});

describe('processAlive', () => {
  it('takes a zombie (exited, not yet reaped: a daemon just killed with -9) for dead, a running process for alive', async () => {
    // Perl does not reap its children unless asked (a shell may, racing the exec): the forked child exits at once and stays a zombie.
    const parent = spawn('perl', ['-e', '$| = 1; my $child = fork(); exit 0 unless $child; print "$child\\n"; sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
      await waitFor(() => /\) Z /.test(readFileSync(`/proc/${zombie}/stat`, 'utf8')), 'the child to be a zombie');
      expect([processAlive(zombie), processAlive(parent.pid!), processAlive(process.pid)]).toEqual([false, true, true]);
    } finally {
      parent.kill('SIGKILL');
    }
  }, 15_000);
});
