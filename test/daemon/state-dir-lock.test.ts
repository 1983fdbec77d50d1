import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Daemon } from '../../src/daemon';
import { silentLogger } from '../../src/lib/logger';
import { StateDirLocked } from '../../src/store/lock';
import { stack } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

jest.setTimeout(60_000);

const RULES = 'rules:\n  - alert: Closed\n    state: withdraw_disabled\n    match: { coin: BTC }\n';

/** The pid of a process of this host that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid as number;
}

describe('two daemons on one state_dir', () => {
  it('the second refuses to start, naming the first; the first goes on alone and tells each change once', async () => {
    const s = await stack(RULES, { coins: 20, poll: '{ coins: 150ms, tickers: 1s }' });
    try {
      await s.start();
      const lockFile = join(s.config.state_dir, 'spotwatch.lock');
      const held = JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number; host: string; started: string };
      expect([held.pid, held.host]).toEqual([process.pid, hostname()]);

      const second = Daemon.start(s.config, { logger: silentLogger(), threads: 'worker' }, { path: s.configPath, env: {} });
      await expect(second).rejects.toThrow(StateDirLocked);
      await expect(second).rejects.toThrow(`state_dir ${s.config.state_dir} is in use by another spotwatch (pid ${process.pid} on host ${hostname()}, started ${held.started}); stop it first, or give this one another state_dir`);
      // The refused one left the first one's lock alone.
      expect(readFileSync(lockFile, 'utf8')).toBe(`${JSON.stringify(held)}\n`);

      s.sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawEnable: false } });
      await waitFor(() => s.bodies().length === 1, 'the closure');
      await s.stop();
      expect(s.bodies().map((b) => b.alerts.map((a) => [a.status, a.labels.alertname, a.labels.coin, a.labels.network]))).toEqual([[['firing', 'Closed', 'BTC', 'BTC']]]);
      // Stopped, it leaves no lock: the next start needs nothing removed.
      expect(existsSync(lockFile)).toBe(false);
    } finally {
      await s.close();
    }
  });

  it('a lock left by a daemon that died (its pid gone) is taken over, and released at stop', async () => {
    const s = await stack(RULES, { coins: 20, poll: '{ coins: 150ms, tickers: 1s }' });
    try {
      const lockFile = join(s.config.state_dir, 'spotwatch.lock');
      mkdirSync(s.config.state_dir, { recursive: true });
      const dead = { pid: deadPid(), host: hostname(), started: '2025-01-01T00:00:00.000Z' };
      writeFileSync(lockFile, `${JSON.stringify(dead)}\n`);
      await s.start();
      expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
      await s.stop();
      expect(existsSync(lockFile)).toBe(false);
    } finally {
      await s.close();
    }
  });

  it('a lock of another host is never taken over: the daemon does not start', async () => {
    const s = await stack(RULES, { coins: 20 });
    try {
      const lockFile = join(s.config.state_dir, 'spotwatch.lock');
      mkdirSync(s.config.state_dir, { recursive: true });
      writeFileSync(lockFile, '{"pid":1,"host":"rack-2","started":"2025-01-01T00:00:00.000Z"}\n');
      await expect(s.start()).rejects.toThrow(
        `state_dir ${s.config.state_dir} is locked by a spotwatch on another host (pid 1 on host rack-2, started 2025-01-01T00:00:00.000Z), which cannot be checked from here; if it no longer runs, remove ${lockFile}`,
      );
      expect(readFileSync(lockFile, 'utf8')).toBe('{"pid":1,"host":"rack-2","started":"2025-01-01T00:00:00.000Z"}\n');
      // Nothing was opened: no store made.
      expect(existsSync(join(s.config.state_dir, 'spotwatch.db'))).toBe(false);
    } finally {
      await s.close();
    }
  });
});
