/**
 * The proof of purity (issue 21): the real daemon, recording, watches the reference exchange
 * through a scripted incident and a restart; `spotwatch replay` of that recording, under the
 * same configuration and rules, decides exactly the changes the daemon stored and exactly the
 * alerts it notified, and prints the same bytes every time.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli';
import { StateStore } from '../../src/store/store';
import { stack, type Stack, type WebhookBody } from '../support/daemon-harness';
import { Sink } from '../support/sink';
import { waitFor } from '../support/wait';

const RULES = `
rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    match: { coin: "USDT|BTC" }
    severity: critical
  - alert: MaintenanceMessage
    change: [withdraw_desc_set, withdraw_desc_changed, withdraw_desc_cleared]
    severity: info
  - alert: FastMove
    ticker: move_percent
    window: 1m
    above: 3
    match: { symbol: BTCUSDT }
`;

const TRC = { coin: 'USDT', network: 'Tron(TRC20)' };
const ERC = { coin: 'USDT', network: 'Ethereum(ERC20)' };

jest.setTimeout(60_000);

async function replay(dir: string, configPath: string, ...more: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await main(['replay', dir, '--config', configPath, ...more], { stdout, stderr, env: {} });
  return { code, out: stdout.text, err: stderr.text };
}

/** A change as compared: every field, the time in ms. */
function changeKey(c: { kind: string; exchange: string; coin?: string | null; network?: string | null; symbol?: string | null; before: unknown; after: unknown; at: number | string }): string {
  const at = typeof c.at === 'number' ? c.at : Date.parse(c.at);
  return JSON.stringify([at, c.exchange, c.kind, c.coin ?? null, c.network ?? null, c.symbol ?? null, c.before, c.after]);
}

/** A notified alert as compared: status, labels (in key order), startsAt. */
function alertKey(status: string, labels: Record<string, string>, startsAt: string): string {
  return JSON.stringify([status, Object.fromEntries(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b))), startsAt]);
}

/** Each alert the receiver was told of, once (a group's notification repeats the alerts still firing in it). */
function notified(bodies: WebhookBody[]): string[] {
  return [...new Set(bodies.flatMap((b) => b.alerts.map((a) => alertKey(a.status, a.labels, a.startsAt))))].sort();
}

/** The alerts of one name and status the receiver was told of, each once. */
function alertsOf(bodies: WebhookBody[], alertname: string, status = 'firing'): WebhookBody['alerts'] {
  const once = new Map(bodies.flatMap((b) => b.alerts).map((a) => [alertKey(a.status, a.labels, a.startsAt), a]));
  return [...once.values()].filter((a) => a.labels.alertname === alertname && a.status === status);
}

describe('replay of a recorded incident', () => {
  let s: Stack;
  let rec: string;
  beforeAll(async () => {
    rec = join(mkdtempSync(join(tmpdir(), 'spotwatch-recording-')), 'rec');
    s = await stack(RULES, { extraConfig: `record: { dir: "${rec}", max_size: 64MiB }\n` });
  });
  afterAll(async () => {
    await s.close();
    rmSync(join(rec, '..'), { recursive: true, force: true });
  });

  it('decides exactly what the daemon stored and notified, across a restart, the same bytes every time', async () => {
    await s.start();
    // 1. Withdrawals close on two networks, one with a message; a price moves 8 %.
    s.sim.control.apply([
      { action: 'set_network', ...TRC, set: { withdrawEnable: false, withdrawDesc: 'TRC20 wallet maintenance' } },
      { action: 'set_network', ...ERC, set: { withdrawEnable: false } },
      { action: 'move_price', symbol: 'BTCUSDT', percent: 8, over: '300ms' },
    ]);
    await waitFor(() => alertsOf(s.bodies(), 'WithdrawDisabled').length === 2 && alertsOf(s.bodies(), 'MaintenanceMessage').length === 1 && alertsOf(s.bodies(), 'FastMove').length === 1, 'the first notifications');
    // 2. The message changes, then one network opens again and its message is cleared.
    s.sim.control.apply({ action: 'set_network', ...TRC, set: { withdrawDesc: 'TRC20 wallet maintenance, extended' } });
    await waitFor(() => alertsOf(s.bodies(), 'MaintenanceMessage').length === 2, 'the changed message');
    s.sim.control.apply({ action: 'set_network', ...TRC, set: { withdrawEnable: true, withdrawDesc: null } });
    await waitFor(() => alertsOf(s.bodies(), 'WithdrawDisabled', 'resolved').length === 1 && alertsOf(s.bodies(), 'MaintenanceMessage').length === 3, 'the reopened network');

    // 3. A restart mid-recording: while the daemon is down, BTC withdrawals close and ERC20's reopen.
    await s.stop();
    const firstRun = readdirSync(rec).sort();
    s.sim.control.apply([
      { action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawEnable: false, withdrawDesc: 'Node upgrade' } },
      { action: 'set_network', ...ERC, set: { withdrawEnable: true } },
    ]);
    await s.start();
    await waitFor(() => alertsOf(s.bodies(), 'WithdrawDisabled').some((a) => a.labels.coin === 'BTC') && alertsOf(s.bodies(), 'WithdrawDisabled', 'resolved').length === 2 && alertsOf(s.bodies(), 'MaintenanceMessage').length === 4, 'what changed while the daemon was down');
    await s.stop();

    // What the daemon stored and notified.
    const store = StateStore.open(join(s.dir, 'data'));
    const stored = store.queryChanges({ limit: 10_000 }).reverse().map(changeKey);
    store.close();
    const told = notified(s.bodies());

    // What the replay decides from the recording, under the same configuration and rules.
    const json = await replay(rec, s.configPath, '--json');
    expect(json.code).toBe(0);
    expect(json.err).toMatch(/^spotwatch replay: [\d-]+T[\d:.]+Z: the daemon started again; the replay goes on from the state recorded then\n$/);
    const lines = json.out.trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; to?: string; labels?: Record<string, string>; startsAt?: string | null } & Parameters<typeof changeKey>[0]);
    const changes = lines.filter((l) => l.type === 'change').map(changeKey);
    expect(changes).toEqual(stored);
    expect(changes.length).toBeGreaterThanOrEqual(9);
    // Printed as the receiver was told: a change rule's event is firing (MaintenanceMessage).
    const replayedAlerts = lines
      .filter((l) => l.to === 'firing' || l.to === 'resolved' || l.to === 'repeat')
      .map((l) => alertKey(l.to === 'repeat' ? 'firing' : (l.to ?? ''), l.labels ?? {}, l.startsAt ?? ''));
    expect([...new Set(replayedAlerts)].sort()).toEqual(told);
    expect(told.length).toBe(10);

    // Deterministic: a second replay prints the same bytes, as text too.
    expect(await replay(rec, s.configPath, '--json')).toEqual(json);
    const text = await replay(rec, s.configPath);
    expect(await replay(rec, s.configPath)).toEqual(text);
    expect(text.out.split('\n').length).toBe(json.out.split('\n').length);

    // The restart: the second run's segments alone replay from the state the daemon restarted
    // with, and decide what the whole recording decides from the restart on.
    const secondRun = join(rec, '..', 'second-run');
    mkdirSync(secondRun);
    for (const f of readdirSync(rec).filter((f) => !firstRun.includes(f))) cpSync(join(rec, f), join(secondRun, f));
    const tail = await replay(secondRun, s.configPath, '--json');
    expect(tail.code).toBe(0);
    expect(tail.out).toContain('"kind":"withdraw_disabled","coin":"BTC"');
    expect(json.out.endsWith(tail.out)).toBe(true);
    expect(tail.out.length).toBeLessThan(json.out.length);
  });
});
