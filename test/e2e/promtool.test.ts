/**
 * The exposition as Prometheus's own linter reads it: `promtool check metrics` (the real one,
 * Debian's package, as .ci/run installs it) on the running daemon's /metrics, gzip'd as
 * Prometheus scrapes and plain, while the exchange is calm and in a storm (every network closed,
 * every alert firing, notifications delivered and failing). It must say nothing at all.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireBinary } from '../support/binaries';
import { killAll } from '../support/process';
import { scriptedExchange, startDaemon, writeDaemonConfig } from '../support/scripted-daemon';
import { waitFor } from '../support/wait';

jest.setTimeout(120_000);

const PROMTOOL = requireBinary(['promtool'], 'prometheus');

let dir: string;
let simUrl: string;
let daemonUrl: string;
let hook: Server;

/** What promtool says of the exposition, and how it exits. */
function promtool(exposition: string): { status: number | null; said: string } {
  const run = spawnSync(PROMTOOL, ['check', 'metrics'], { input: exposition, encoding: 'utf8' });
  if (run.error !== undefined) throw run.error;
  return { status: run.status, said: run.stdout + run.stderr };
}

async function scrape(encoding: 'gzip' | 'identity'): Promise<string> {
  const res = await fetch(`${daemonUrl}/metrics`, { headers: { 'accept-encoding': encoding } });
  expect({ status: res.status, encoding: res.headers.get('content-encoding') }).toEqual({ status: 200, encoding: encoding === 'gzip' ? 'gzip' : null });
  return res.text();
}

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-promtool-'));
  // A receiver that refuses every other notification, so the failure and retry series have samples too.
  let n = 0;
  hook = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = n++ % 2 === 0 ? 503 : 200;
      res.end();
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  simUrl = await scriptedExchange(dir, 'name: calm\nsteps: []\n', { coins: 200, seed: 4 });
  writeFileSync(join(dir, 'rules.yaml'), 'rules:\n  - alert: WithdrawClosed\n    state: withdraw_disabled\n    severity: critical\n  - alert: WithdrawClosing\n    change: withdraw_disabled\n');
  writeDaemonConfig(dir, simUrl, join(dir, 'rules.yaml'));
  const config = join(dir, 'spotwatch.yaml');
  writeFileSync(
    config,
    readFileSync(config, 'utf8').replace(
      '  receivers:\n',
      `  group_wait: 200ms\n  group_interval: 1s\n  receivers:\n    - name: hook\n      webhook: { url: "http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook" }\n`,
    ),
  );
  daemonUrl = (await startDaemon(dir)).url;
  await waitFor(async () => (await fetch(`${daemonUrl}/readyz`)).status === 200, 'the daemon to be ready', 30_000);
});

afterAll(async () => {
  await killAll();
  hook?.closeAllConnections();
  await new Promise((r) => hook?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('promtool check metrics on the running daemon', () => {
  it('finds no problem while the exchange is calm, gzip\'d or plain', async () => {
    for (const encoding of ['gzip', 'identity'] as const) {
      const text = await scrape(encoding);
      expect(text).toContain('spotwatch_network_withdraw_enabled{');
      expect(promtool(text)).toEqual({ status: 0, said: '' });
    }
  });

  it('finds no problem in a storm: every network closed, every alert firing, notifications sent and refused', async () => {
    const coins = (await (await fetch(`${simUrl}/api/v3/coins`)).json()) as { coin: string; networkList: { network: string }[] }[];
    const networks = coins.flatMap((c) => c.networkList.map((n) => ({ coin: c.coin, network: n.network })));
    const res = await fetch(`${simUrl}/-/sim/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(networks.map((n) => ({ action: 'set_network', ...n, set: { withdrawEnable: false, depositEnable: false, withdrawDesc: 'storm "maintenance"\n<b>' } }))),
    });
    expect(res.status).toBe(200);
    const stormed = await waitFor(async () => {
      const text = await scrape('gzip');
      const firing = sample(text, 'spotwatch_alerts_firing{alertname="WithdrawClosed",severity="critical"}');
      const failed = sample(text, 'spotwatch_notifications_failed_total{receiver="hook",reason="server_error"}') ?? 0;
      return firing === networks.length && failed > 0 ? text : undefined;
    }, 'every network closed and told, a notification refused', 60_000, 200);
    expect(promtool(stormed)).toEqual({ status: 0, said: '' });
    expect(promtool(await scrape('identity'))).toEqual({ status: 0, said: '' });
  });
});
