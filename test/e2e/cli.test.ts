import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAll, spotwatch } from '../support/process';
import { waitFor } from '../support/wait';

jest.setTimeout(60_000);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-cli-'));
});
afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `spotwatch simulate` on a free port and returns its URL. */
async function simulate(args: string[]): Promise<string> {
  const sim = spotwatch(['simulate', '--listen', '127.0.0.1:0', ...args]);
  const [, url] = await sim.output(/reference exchange listening on (http:\/\/\S+)/);
  return url as string;
}

describe('spotwatch once --json', () => {
  it('prints the exact snapshot: spec field names, decimals as the exact text received', async () => {
    writeFileSync(
      join(dir, 'multiples.yaml'),
      `name: multiples
steps:
  - at: 0s
    action: set_network
    coin: USDT
    network: Tron(TRC20)
    set: { withdrawIntegerMultiple: "1E-8", withdrawFee: "1.50", withdrawDesc: "Wallet maintenance" , withdrawEnable: false }
  - at: 0s
    action: set_network
    coin: USDT
    network: SOL
    set: { withdrawIntegerMultiple: { string: "1" } }
`,
    );
    const url = await simulate(['--coins', '30', '--seed', '4', '--scenario', join(dir, 'multiples.yaml')]);
    const raw = await (await fetch(`${url}/api/v3/coins`)).text();
    expect(raw).toContain('"withdrawIntegerMultiple":1E-8');
    expect(raw).toContain('"withdrawIntegerMultiple":"1"');

    writeFileSync(join(dir, 'once.yaml'), `exchanges:\n  - name: sim\n    base_url: ${url}\n    symbols: [BTCUSDT, ETHUSDT]\n`);
    const once = spotwatch(['once', '--json', '--config', join(dir, 'once.yaml')]);
    expect(await once.exit()).toBe(0);
    const doc = JSON.parse(once.stdout) as { exchanges: { name: string; coins: { coin: string; networkList: Record<string, unknown>[] }[]; tickers: Record<string, unknown>[] }[] };
    expect(doc.exchanges.map((e) => e.name)).toEqual(['sim']);
    const ex = doc.exchanges[0]!;
    const usdt = ex.coins.find((c) => c.coin === 'USDT')!;
    expect(Object.keys(usdt)).toEqual(['coin', 'name', 'depositAllEnable', 'withdrawAllEnable', 'networkList']);
    const trc = usdt.networkList.find((n) => n.network === 'Tron(TRC20)')!;
    expect(Object.keys(trc)).toEqual([
      'network', 'coin', 'name', 'isDefault', 'depositEnable', 'withdrawEnable', 'withdrawFee', 'withdrawMin', 'withdrawInternalMin',
      'withdrawIntegerMultiple', 'minConfirm', 'withdrawTag', 'depositDust', 'contractAddress', 'contractAddressUrl', 'depositDesc', 'withdrawDesc',
      // then the canonical chain (null when the alias table does not know the network)
      'chain',
    ]);
    expect(trc).toMatchObject({ withdrawIntegerMultiple: '1E-8', withdrawFee: '1.50', withdrawEnable: false, withdrawDesc: 'Wallet maintenance', depositDesc: null });
    expect(usdt.networkList.find((n) => n.network === 'SOL')?.withdrawIntegerMultiple).toBe('1');
    expect(typeof trc.minConfirm).toBe('number');

    // Every network and ticker value equals what the exchange itself serves, byte for byte.
    const wire = JSON.parse(raw.replace(/"withdrawIntegerMultiple":([-0-9.eE+]+)/g, '"withdrawIntegerMultiple":"$1"')) as { coin: string; networkList: unknown[] }[];
    // (The canonical chain, last in each network, is spotwatch's own: not on the wire.)
    expect(trc.chain).toBe('tron');
    expect(ex.coins.map((c) => c.networkList.map(({ chain: _chain, ...n }) => n))).toEqual(wire.map((c) => c.networkList));
    expect(ex.tickers.map((t) => t.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(Object.keys(ex.tickers[0]!)).toEqual([
      'symbol', 'priceChange', 'priceChangePercent', 'lastPrice', 'bidPrice', 'bidQty', 'askPrice', 'askQty', 'openPrice',
      'highPrice', 'lowPrice', 'volume', 'quoteVolume', 'openTime', 'closeTime', 'count',
    ]);
  });

  it('prints a short summary without --json, and exits 1 naming the failure when an exchange is down', async () => {
    const url = await simulate(['--coins', '20']);
    writeFileSync(join(dir, 'two.yaml'), `exchanges:\n  - name: up\n    base_url: ${url}\n  - name: down\n    base_url: http://127.0.0.1:1\n    retries: { max: 0 }\n`);
    const once = spotwatch(['once', '--config', join(dir, 'two.yaml')]);
    expect(await once.exit()).toBe(1);
    expect(once.stdout).toMatch(/^up: 20 coins, \d+ networks \(\d+ with deposits or withdrawals closed\), \d+ tickers\n$/);
    expect(once.stderr).toContain('down: poll failed (connect)');
  });
});

describe('spotwatch check-config', () => {
  it('accepts the shipped default config', async () => {
    const check = spotwatch(['check-config', '--config', 'config/spotwatch.yaml']);
    expect(await check.exit()).toBe(0);
    expect(check.stdout).toBe('config/spotwatch.yaml: ok (1 exchange, 25 rules, 1 receiver)\n');
  });

  it('lists every problem of a bad config and its rules file with positions, and exits 1', async () => {
    writeFileSync(join(dir, 'bad.yaml'), 'exchanges:\n  - name: main\n    poll: { coins: 30x }\nsever: 1\n');
    const check = spotwatch(['check-config', '--config', join(dir, 'bad.yaml')]);
    expect(await check.exit()).toBe(1);
    expect(check.stderr.trim().split('\n')).toEqual([
      `${join(dir, 'bad.yaml')}:3:20: exchanges[0].poll.coins: invalid duration "30x" (use 500ms, 15s, 5m, 4h)`,
      `${join(dir, 'bad.yaml')}:4:1: unknown key "sever" (expected one of: exchanges, server, state_dir, history_retention, rules_file, log, metrics, notify, chains, record)`,
    ]);
    writeFileSync(join(dir, 'rules.yaml'), 'rules:\n  - alert: X\n    state: nope\n');
    writeFileSync(join(dir, 'good.yaml'), 'exchanges:\n  - name: main\nrules_file: rules.yaml\n');
    const rules = spotwatch(['check-config', '--config', join(dir, 'good.yaml')]);
    expect(await rules.exit()).toBe(1);
    expect(rules.stderr).toMatch(/rules\.yaml:3:12: rules\[0\]\.state: expected one of deposit_disabled/);
  });

  it('explains a wrong command line', async () => {
    const bad = spotwatch(['simulate', '--coins', 'many']);
    expect(await bad.exit()).toBe(2);
    expect(bad.stderr).toContain('--coins takes a whole number, got "many"');
  });
});

interface Stored {
  kind: string;
  coin: string;
  network?: string;
  before: unknown;
  after: unknown;
  at: string;
}

describe('spotwatch run --record DIR, then spotwatch replay DIR', () => {
  it('replays what the daemon decided from the answers it recorded, the same bytes twice', async () => {
    const url = await simulate(['--coins', '30', '--seed', '3']);
    writeFileSync(join(dir, 'rec-rules.yaml'), 'rules:\n  - alert: WithdrawDisabled\n    state: withdraw_disabled\n    match: { coin: USDT }\n    severity: critical\n');
    const config = join(dir, 'rec.yaml');
    writeFileSync(config, `exchanges:\n  - name: sim\n    base_url: ${url}\n    poll: { coins: 200ms, tickers: 200ms }\nserver: { listen: "127.0.0.1:0" }\nstate_dir: ${join(dir, 'rec-data')}\nrules_file: rec-rules.yaml\nlog: { format: json }\n`);
    const recording = join(dir, 'recording');
    const daemon = spotwatch(['run', '--config', config, '--record', recording]);
    await daemon.output(/"msg":"recording every answer for spotwatch replay"/);
    const [, api] = await daemon.output(/"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*"msg":"serving/);
    await fetch(`${url}/-/sim/actions`, { method: 'POST', body: JSON.stringify({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false, withdrawDesc: 'maintenance' } }) });
    const stored = await waitFor(async (): Promise<Stored[] | undefined> => {
      const changes = ((await (await fetch(`${api}/api/v1/changes`)).json()) as { data: Stored[] }).data;
      return changes.some((c) => c.kind === 'withdraw_desc_set') ? changes : undefined;
    }, 'the daemon to store the changes');
    await daemon.kill('SIGTERM');
    expect(daemon.exitCode).toBe(0);

    const replay = spotwatch(['replay', recording, '--config', config, '--json']);
    expect(await replay.exit()).toBe(0);
    expect(replay.stderr).toBe('');
    const lines = replay.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const changes = lines.filter((l) => l.type === 'change').map(({ at, kind, coin, network, before, after }) => ({ at, kind, coin, network: network ?? null, before, after }));
    expect(changes).toEqual(stored.reverse().map(({ at, kind, coin, network, before, after }) => ({ at, kind, coin, network: network ?? null, before, after })));
    expect(lines.filter((l) => l.type === 'alert').map((l) => `${String(l.to)} ${String(l.alertname)} ${String((l.labels as Record<string, string>).network)}`)).toEqual(['firing WithdrawDisabled Tron(TRC20)']);
    const again = spotwatch(['replay', recording, '--config', config, '--json']);
    expect(await again.exit()).toBe(0);
    expect(again.stdout).toBe(replay.stdout);
  });
});

describe('the edges a newcomer meets', () => {
  it.each(['run', 'simulate', 'check-config', 'once', 'test-notify', 'replay'])('spotwatch %s --help prints its usage and every option, and exits 0', async (command) => {
    const help = spotwatch([command, '--help']);
    expect(await help.exit()).toBe(0);
    expect(help.stderr).toBe('');
    expect(help.stdout.startsWith(`usage: spotwatch ${command}`)).toBe(true);
    expect(help.stdout).toContain('\noptions:\n');
    expect(help.stdout).toContain('-h, --help');
    const again = spotwatch(['help', command]);
    expect(await again.exit()).toBe(0);
    expect(again.stdout).toBe(help.stdout);
  });

  it('names every option of run and simulate in their help', async () => {
    const run = spotwatch(['run', '-h']);
    expect(await run.exit()).toBe(0);
    for (const o of ['--config FILE', '--record DIR']) expect(run.stdout).toContain(o);
    const sim = spotwatch(['simulate', '--help']);
    expect(await sim.exit()).toBe(0);
    for (const o of ['--listen HOST:PORT', '--scenario FILE', '--coins N', '--seed N', '--dialect NAME', '--api-key K', '--api-secret S', '--passphrase P']) expect(sim.stdout).toContain(o);
  });

  it('says in one line, without a stack, that the port is taken, and exits 1 (run and simulate)', async () => {
    const url = await simulate(['--coins', '5']);
    const port = new URL(url).port;
    writeFileSync(join(dir, 'taken.yaml'), `exchanges:\n  - name: x\n    base_url: ${url}\nserver: { listen: "127.0.0.1:${port}" }\nstate_dir: ${join(dir, 'taken-data')}\n`);
    const daemon = spotwatch(['run', '--config', join(dir, 'taken.yaml')]);
    expect(await daemon.exit()).toBe(1);
    expect(daemon.stderr).toBe(`spotwatch: port ${port} on 127.0.0.1 is already in use (server.listen)\n`);
    const sim = spotwatch(['simulate', '--listen', `127.0.0.1:${port}`]);
    expect(await sim.exit()).toBe(1);
    expect(sim.stderr).toBe(`spotwatch: port ${port} on 127.0.0.1 is already in use (--listen)\n`);
  });

  it('says in one line that a scenario file is missing or broken, and exits 1', async () => {
    const missing = join(dir, 'no-such-scenario.yaml');
    const sim = spotwatch(['simulate', '--listen', '127.0.0.1:0', '--scenario', missing]);
    expect(await sim.exit()).toBe(1);
    expect(sim.stderr).toBe(`${missing}: cannot read: no such file\n`);
    expect(sim.stdout).toBe('');
    writeFileSync(join(dir, 'broken-scenario.yaml'), 'name: x\nsteps:\n  - at: 0s\n    action: nope\n');
    const broken = spotwatch(['simulate', '--listen', '127.0.0.1:0', '--scenario', join(dir, 'broken-scenario.yaml')]);
    expect(await broken.exit()).toBe(1);
    expect(broken.stderr).toMatch(new RegExp(`^${join(dir, 'broken-scenario.yaml').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:4:13: [^\\n]+\\n$`));
  });

  it("says in one line that an embedded exchange cannot start (its scenario missing or broken, its port taken), and run exits 1", async () => {
    const config = (name: string, simulate: string): string => {
      const file = join(dir, `${name}.yaml`);
      writeFileSync(file, `exchanges:\n  - name: sim\n    simulate: ${simulate}\nserver: { listen: "127.0.0.1:0" }\nstate_dir: ${join(dir, `${name}-data`)}\nnotify:\n  receivers:\n    - name: log\n      log: {}\n`);
      return file;
    };
    const missing = join(dir, 'no-such-embedded-scenario.yaml');
    const noScenario = spotwatch(['run', '--config', config('embedded-missing', `{ scenario: ${missing} }`)]);
    expect(await noScenario.exit()).toBe(1);
    expect(noScenario.stderr).toBe(`${missing}: cannot read: no such file\n`);
    expect(noScenario.stdout).toBe('');

    writeFileSync(join(dir, 'broken-embedded.yaml'), 'name: x\nsteps:\n  - at: 0s\n    action: nope\n');
    const broken = spotwatch(['run', '--config', config('embedded-broken', `{ scenario: ${join(dir, 'broken-embedded.yaml')} }`)]);
    expect(await broken.exit()).toBe(1);
    expect(broken.stderr).toBe(`${join(dir, 'broken-embedded.yaml')}:4:13: steps[0].action: unknown action "nope" (expected one of: set_network, set_coin, list_coin, delist_coin, add_network, remove_network, list_symbol, delist_symbol, move_price, set_ticker, fault, clear_faults, schedule_maintenance, start_maintenance, complete_maintenance, cancel_maintenance, reschedule_maintenance, announce)\n`);

    const port = new URL(await simulate(['--coins', '5'])).port;
    const taken = spotwatch(['run', '--config', config('embedded-taken', `{ listen: "127.0.0.1:${port}" }`)]);
    expect(await taken.exit()).toBe(1);
    expect(taken.stderr).toBe(`spotwatch: port ${port} on 127.0.0.1 is already in use (simulate.listen of exchange sim)\n`);
    expect(taken.stdout).toBe('');
  });

  it('refuses --coins 0 as a wrong command line, not with a stack', async () => {
    const zero = spotwatch(['simulate', '--coins', '0']);
    expect(await zero.exit()).toBe(2);
    expect(zero.stderr.split('\n')[0]).toBe('spotwatch: --coins takes a whole number from 1, got "0"');
  });
});
