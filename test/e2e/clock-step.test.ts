import { accessSync, constants, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../src/lib/logger';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { killAll, spotwatch, type Child } from '../support/process';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(120_000);

/**
 * Sets libfaketime's offset file whole (written aside, then renamed): it is re-read at every clock
 * call (FAKETIME_NO_CACHE), and a read in the middle of a plain write sees an empty file, no offset,
 * a step back and forth that the daemon rightly logs.
 */
function stepTo(file: string, offset: string): void {
  writeFileSync(`${file}.new`, `${offset}\n`);
  renameSync(`${file}.new`, file);
}

/** libfaketime, from Debian's package "faketime" (.ci/run installs it). */
const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const GROUP_WAIT_MS = 10_000;
/** What a busy machine may add to group_wait: a poll, a tick, a delivery. */
const MARGIN_MS = 5_000;

function requireLibfaketime(): string {
  try {
    accessSync(LIBFAKETIME, constants.R_OK);
    return LIBFAKETIME;
  } catch {
    throw new Error(`${LIBFAKETIME} is missing: this end-to-end suite needs the Debian package "faketime" (apt-get install -y faketime; .ci/run does it)`);
  }
}

let dir: string;
let sim: RunningSimulator;
let hook: WebhookReceiver;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-clock-'));
  sim = await startSimulator({ port: 0, coins: 20, seed: 11, logger: silentLogger() });
  hook = await new WebhookReceiver().start();
});
afterAll(async () => {
  await killAll();
  await hook.stop();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the built daemon under libfaketime, its wall clock stepped', () => {
  it('set back an hour during group_wait: the closure is told within group_wait of real time, once, and the step is logged', async () => {
    const lib = requireLibfaketime();
    writeFileSync(join(dir, 'rules.yaml'), 'rules:\n  - alert: Closed\n    state: withdraw_disabled\n    match: { coin: BTC, network: BTC }\n');
    const config = join(dir, 'spotwatch.yaml');
    writeFileSync(
      config,
      `exchanges:\n  - name: main\n    base_url: ${sim.url}\n    poll: { coins: 200ms, tickers: 1s }\nserver: { listen: "127.0.0.1:0" }\nstate_dir: ${join(dir, 'data')}\nrules_file: rules.yaml\nnotify:\n  group_wait: 10s\n  group_interval: 1m\n  receivers:\n    - name: hook\n      webhook: { url: "${hook.url}/hook" }\n`,
    );
    // The fake time's offset from the real one, re-read at every call (FAKETIME_NO_CACHE); the
    // monotonic clock left alone, as an NTP step leaves it.
    const offset = join(dir, 'faketime');
    writeFileSync(offset, '+0\n');
    const child: Child = spotwatch(['run', '--config', config], {
      env: { LD_PRELOAD: lib, FAKETIME_TIMESTAMP_FILE: offset, FAKETIME_NO_CACHE: '1', FAKETIME_DONT_FAKE_MONOTONIC: '1', SPOTWATCH_LOG_LEVEL: 'info' },
    });
    const url = await child.ready();

    sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawEnable: false } });
    await waitFor(async () => {
      const body = (await (await fetch(`${url}/api/v1/alerts`)).json()) as { data: { status: string; labels: Record<string, string> }[] };
      return body.data.some((a) => a.status === 'firing' && a.labels.alertname === 'Closed');
    }, 'the closure to fire');
    const decided = Date.now();
    // Two more coin polls: the alert, told to the engine with the poll that decided it,
    // is in its group by then (group_wait counting), and the step comes in the middle of it.
    const polled = async (): Promise<string | undefined> => ((await (await fetch(`${url}/api/v1/state`)).json()) as { data: { exchanges: { polls: Record<string, { at: string }> }[] } }).data.exchanges[0]?.polls.coins?.at;
    for (let i = 0; i < 2; i++) {
      const before = await polled();
      await waitFor(async () => (await polled()) !== before, 'a coin poll');
    }
    stepTo(offset, '-3600');

    const got = await waitFor(() => hook.received[0], 'the closure told', GROUP_WAIT_MS + MARGIN_MS);
    expect(Date.now() - decided).toBeLessThan(GROUP_WAIT_MS + MARGIN_MS);
    const body = got.body as { status: string; alerts: { status: string; labels: Record<string, string>; endsAt: string }[] };
    expect([body.status, body.alerts.map((a) => [a.status, a.labels.alertname, a.labels.coin, a.labels.network, a.endsAt])]).toEqual(['firing', [['firing', 'Closed', 'BTC', 'BTC', '0001-01-01T00:00:00Z']]]);

    const stepped = await child.output(/"msg":"clock stepped"/, 10_000).then(() => child.stderr.split('\n').filter((l) => l.includes('"clock stepped"')).map((l) => JSON.parse(l) as { stepMs: number }));
    expect(stepped).toHaveLength(1);
    expect(Math.abs((stepped[0] as { stepMs: number }).stepMs + 3_600_000)).toBeLessThan(1_000);

    await child.kill('SIGTERM');
    expect(child.exitCode).toBe(0);
    expect(hook.received).toHaveLength(1);
  });

  it('stepped forward, then back, an hour during two closures: each stored outage lasts what passed in real time', async () => {
    const lib = requireLibfaketime();
    writeFileSync(join(dir, 'outage-rules.yaml'), 'rules:\n  - alert: Closed\n    state: withdraw_disabled\n');
    const config = join(dir, 'outages.yaml');
    writeFileSync(
      config,
      `exchanges:\n  - name: main\n    base_url: ${sim.url}\n    poll: { coins: 200ms, tickers: 1s }\nserver: { listen: "127.0.0.1:0" }\nstate_dir: ${join(dir, 'outages')}\nrules_file: outage-rules.yaml\nnotify:\n  receivers:\n    - name: hook\n      webhook: { url: "${hook.url}/outages" }\n`,
    );
    const offset = join(dir, 'faketime-outages');
    writeFileSync(offset, '+0\n');
    const child: Child = spotwatch(['run', '--config', config], {
      env: { LD_PRELOAD: lib, FAKETIME_TIMESTAMP_FILE: offset, FAKETIME_NO_CACHE: '1', FAKETIME_DONT_FAKE_MONOTONIC: '1', SPOTWATCH_LOG_LEVEL: 'info' },
    });
    const url = await child.ready();
    type OutageView = { from: string; to: string | null; duration_seconds: number };
    const outage = async (coin: string): Promise<OutageView | undefined> => ((await (await fetch(`${url}/api/v1/outages?coin=${coin}&network=${coin}`)).json()) as { outages: OutageView[] }).outages[0];
    const polled = async (): Promise<string | undefined> => ((await (await fetch(`${url}/api/v1/state`)).json()) as { data: { exchanges: { polls: Record<string, { at: string }> }[] } }).data.exchanges[0]?.polls.coins?.at;
    const polls = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) {
        const before = await polled();
        await waitFor(async () => (await polled()) !== before, 'a coin poll');
      }
    };

    /** A closure of `coin` with the wall clock set to `to` in the middle: what is stored, and how long it was closed in real time. */
    const closure = async (coin: string, to: string): Promise<{ stored: OutageView; realS: number }> => {
      sim.control.apply({ action: 'set_network', coin, network: coin, set: { withdrawEnable: false } });
      const closed = performance.now();
      await waitFor(() => outage(coin), `${coin}'s outage`);
      // A few seconds of real time (coin polls 200 ms apart) on each side of the step.
      await polls(10);
      stepTo(offset, to);
      await polls(10);
      sim.control.apply({ action: 'set_network', coin, network: coin, set: { withdrawEnable: true } });
      const realS = (performance.now() - closed) / 1000;
      const stored = await waitFor(async () => {
        const o = await outage(coin);
        return o?.to !== null ? o : undefined;
      }, `${coin}'s reopening`);
      return { stored, realS };
    };

    const forward = await closure('ETH', '+3600');
    const back = await closure('SOL', '+0');
    for (const { stored, realS } of [forward, back]) {
      // From the poll that saw it close to the one that saw it reopen: within a poll or two of the real time.
      expect(stored.duration_seconds).toBeGreaterThan(realS - 1);
      expect(stored.duration_seconds).toBeLessThan(realS + 1);
    }
    // Several seconds each (not 0, not an hour and more).
    expect(forward.stored.duration_seconds).toBeGreaterThan(3);
    expect(back.stored.duration_seconds).toBeGreaterThan(3);
    expect(forward.stored.duration_seconds).toBeLessThan(30);

    const stepped = child.stderr.split('\n').filter((l) => l.includes('"clock stepped"')).map((l) => Math.round((JSON.parse(l) as { stepMs: number }).stepMs / 60_000));
    expect(stepped).toEqual([60, -60]);
    await child.kill('SIGTERM');
    expect(child.exitCode).toBe(0);
  });
});
