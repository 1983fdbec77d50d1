import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAll, spotwatch } from '../support/process';

jest.setTimeout(120_000);

let dir: string;
let simUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-lock-'));
  const sim = spotwatch(['simulate', '--listen', '127.0.0.1:0', '--coins', '30', '--seed', '3']);
  simUrl = (await sim.output(/reference exchange listening on (http:\/\/\S+)/))[1] as string;
});
afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('spotwatch run, twice on one state_dir', () => {
  it('the second exits 1 with one line naming the first; after a kill -9 the next one takes the stale lock over; SIGTERM releases it', async () => {
    const stateDir = join(dir, 'data');
    const config = join(dir, 'spotwatch.yaml');
    writeFileSync(config, `exchanges:\n  - name: main\n    base_url: ${simUrl}\n    poll: { coins: 200ms, tickers: 200ms }\nserver: { listen: "127.0.0.1:0" }\nstate_dir: ${stateDir}\nnotify:\n  receivers:\n    - name: log\n      log: {}\n`);
    const lockFile = join(stateDir, 'spotwatch.lock');

    const first = spotwatch(['run', '--config', config]);
    await first.ready();
    const held = JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number; host: string; started: string };
    expect([held.pid, held.host]).toEqual([first.proc.pid, hostname()]);

    const second = spotwatch(['run', '--config', config]);
    expect(await second.exit()).toBe(1);
    expect(second.stderr).toBe(`spotwatch: state_dir ${stateDir} is in use by another spotwatch (pid ${held.pid} on host ${hostname()}, started ${held.started}); stop it first, or give this one another state_dir\n`);
    expect(second.stdout).toBe('');

    // The first dies without a word: its lock stays, and the next start takes it over.
    await first.kill('SIGKILL');
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toEqual(held);
    const third = spotwatch(['run', '--config', config]);
    await third.ready();
    expect(third.stderr).toContain('"msg":"took over the state_dir lock of a spotwatch that no longer runs"');
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: third.proc.pid, host: hostname() });

    await third.kill('SIGTERM');
    expect(third.exitCode).toBe(0);
    expect(existsSync(lockFile)).toBe(false);
  });
});
