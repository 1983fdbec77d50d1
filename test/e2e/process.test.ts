import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAll, spotwatch } from '../support/process';

jest.setTimeout(120_000);

let dir: string;
let simUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-proc-'));
  const sim = spotwatch(['simulate', '--listen', '127.0.0.1:0', '--coins', '200', '--seed', '3']);
  simUrl = (await sim.output(/reference exchange listening on (http:\/\/\S+)/))[1] as string;
});
afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

function config(name: string, stateDir: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `exchanges:\n  - name: main\n    base_url: ${simUrl}\n    poll: { coins: 200ms, tickers: 200ms }\n    timeout: 30s\nserver: { listen: "127.0.0.1:0" }\nstate_dir: ${stateDir}\nnotify:\n  receivers:\n    - name: log\n      log: {}\n`);
  return file;
}

describe('process faults', () => {
  it('a state_dir that cannot be used is a clear error and exit 1, not a crash loop', async () => {
    writeFileSync(join(dir, 'not-a-dir'), 'x');
    const child = spotwatch(['run', '--config', config('bad-state', join(dir, 'not-a-dir'))]);
    expect(await child.exit()).toBe(1);
    expect(child.stderr.trim().split('\n').pop()).toMatch(/^spotwatch: cannot use state_dir .*not-a-dir: (EEXIST|ENOTDIR) \(it must be a writable directory\)$/);
  });

  it('SIGTERM in the middle of a poll exits 0 within 10 s', async () => {
    const child = spotwatch(['run', '--config', config('sigterm', join(dir, 'data-sigterm'))]);
    await child.ready();
    // The next coins poll hangs (headers, then nothing) under a 30 s timeout.
    await fetch(`${simUrl}/-/sim/faults`, { method: 'POST', body: JSON.stringify({ kind: 'hang', endpoint: 'coins' }) });
    await new Promise((r) => setTimeout(r, 600)); // let a poll start and hang
    const t = Date.now();
    await child.kill('SIGTERM');
    expect(child.exitCode).toBe(0);
    expect(Date.now() - t).toBeLessThan(10_000);
    await fetch(`${simUrl}/-/sim/faults`, { method: 'DELETE' });
  });

  it('kill -9 in the middle of writing state leaves a store that opens, with the last committed state', async () => {
    const stateDir = join(dir, 'data-kill');
    const file = config('kill', stateDir);
    for (let round = 0; round < 3; round++) {
      const child = spotwatch(['run', '--config', file]);
      await child.ready();
      // Writes happen every 200 ms; a kill lands in the middle of one sooner or later.
      await fetch(`${simUrl}/-/sim/actions`, { method: 'POST', body: JSON.stringify({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawFee: `0.000${round + 1}` } }) });
      await new Promise((r) => setTimeout(r, 300 + round * 170));
      await child.kill('SIGKILL');
    }
    const last = spotwatch(['run', '--config', file]);
    const url = await last.ready();
    expect(last.stderr).not.toContain('moved aside');
    const changes = (await (await fetch(`${url}/api/v1/changes?coin=BTC&kind=withdraw_fee_changed`)).json()) as { data: { after: string }[] };
    expect(changes.data.length).toBeGreaterThanOrEqual(1);
    await last.kill('SIGTERM');
    expect(last.exitCode).toBe(0);
  });
});
