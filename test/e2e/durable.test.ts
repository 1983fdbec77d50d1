import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { daemonConfig, killAll, spotwatch, type Child } from '../support/process';
import { waitFor } from '../support/wait';
import { WebhookReceiver, type Received } from '../support/webhook-receiver';

jest.setTimeout(180_000);

let dir: string;
let simUrl: string;

const RULES = `rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    match: { coin: USDT }
    severity: critical
  - alert: DepositMessage
    change: deposit_desc_set
    match: { coin: USDT }
    severity: info
`;

const NETWORK = { coin: 'USDT', network: 'Tron(TRC20)' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-durable-'));
  writeFileSync(join(dir, 'rules.yaml'), RULES);
  const sim = spotwatch(['simulate', '--listen', '127.0.0.1:0', '--coins', '50', '--seed', '2']);
  simUrl = (await sim.output(/reference exchange listening on (http:\/\/\S+)/))[1] as string;
});

afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await adminApply({ action: 'set_network', ...NETWORK, set: { withdrawEnable: true, withdrawDesc: null, depositDesc: null } });
});

async function adminApply(action: object): Promise<void> {
  const res = await fetch(`${simUrl}/-/sim/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(action) });
  if (res.status !== 200) throw new Error(`admin API: ${res.status} ${await res.text()}`);
}

/** A daemon's config against the reference exchange, with `rules` and the `notify` block given. */
function config(name: string, notify: string, rules = 'rules.yaml'): { file: string; stateDir: string } {
  return daemonConfig(dir, simUrl, name, notify, rules);
}

async function startDaemon(file: string): Promise<Child> {
  return (await started(file)).child;
}

async function started(file: string): Promise<{ child: Child; url: string }> {
  const child = spotwatch(['run', '--config', file]);
  const url = await child.ready();
  return { child, url };
}

/** The daemon's log lines (JSON, one a line) with this message. */
function logged(child: Child, msg: string): { time: number; [k: string]: unknown }[] {
  return `${child.stdout}\n${child.stderr}`
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { time: number; msg: string })
    .filter((l) => l.msg === msg);
}

interface Row {
  state: string;
  attempts: number;
  next_at: number;
  group_key: string;
}

/** The outbox rows of a state_dir, read as a restart would (a connection of its own). */
function outbox(stateDir: string): Row[] {
  const db = new Database(join(stateDir, 'spotwatch.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT state, attempts, next_at, coalesce(json_extract(body, '$.notification.groupKey'), '') AS group_key FROM outbox ORDER BY id").all() as Row[];
  } finally {
    db.close();
  }
}

function alertname(r: Received): string {
  return (r.body as { groupLabels: { alertname: string } }).groupLabels.alertname;
}

function keyOf(r: Received): string {
  return r.headers['idempotency-key'] as string;
}

describe('a notification accepted while its receiver is down, and the daemon killed with -9', () => {
  it('is delivered after the restart, exactly once, with the Idempotency-Key of the attempts before the kill (a state rule and a change rule)', async () => {
    const hook = await new WebhookReceiver().start();
    hook.replies.push(...Array.from({ length: 1000 }, () => ({ status: 503 })));
    // notify.retry as shipped (1s, 5m, 12h): three refused attempts leave the next one a few seconds ahead.
    // One receiver per rule: a receiver's outbox goes in order, so each must have its own to be refused on its own.
    const { file, stateDir } = config(
      'kill9',
      `  group_wait: 2s
  routes:
    - { match: { alertname: WithdrawDisabled }, receivers: [state-hook] }
    - { match: { alertname: DepositMessage }, receivers: [change-hook] }
  receivers:
    - name: state-hook
      webhook: { url: "${hook.url}/state" }
    - name: change-hook
      webhook: { url: "${hook.url}/change" }
`,
    );
    const first = await startDaemon(file);
    await adminApply({ action: 'set_network', ...NETWORK, set: { withdrawEnable: false, depositDesc: 'Deposits suspended for an upgrade' } });

    // Accepted: both notifications pending in the outbox, each refused three times.
    await waitFor(() => {
      const rows = outbox(stateDir);
      return rows.length === 2 && rows.every((r) => r.state === 'pending' && r.attempts >= 3);
    }, 'both notifications to have been refused three times', 60_000);
    await first.kill('SIGKILL');
    const before = outbox(stateDir);
    expect(before.map((r) => r.state)).toEqual(['pending', 'pending']);
    const refusedKeys = new Map<string, Set<string>>();
    for (const r of hook.refused) refusedKeys.set(alertname(r), (refusedKeys.get(alertname(r)) ?? new Set()).add(keyOf(r)));
    expect([...refusedKeys.keys()].sort()).toEqual(['DepositMessage', 'WithdrawDisabled']);
    expect([...refusedKeys.values()].map((keys) => keys.size)).toEqual([1, 1]);

    hook.replies.length = 0; // the receiver recovers
    const restartedAt = Date.now();
    const second = await startDaemon(file);
    await waitFor(() => hook.received.length >= 2, 'both notifications after the restart', 60_000 - (Date.now() - restartedAt));
    await waitFor(() => outbox(stateDir).every((r) => r.state === 'done'), 'the outbox to be done with both', 10_000);
    await second.kill('SIGTERM');
    expect(second.exitCode).toBe(0);

    expect(hook.received.map((r) => alertname(r)).sort()).toEqual(['DepositMessage', 'WithdrawDisabled']);
    for (const r of hook.received) {
      expect((r.body as { status: string }).status).toBe('firing');
      expect([keyOf(r)]).toEqual([...(refusedKeys.get(alertname(r)) ?? [])]);
    }
    expect(outbox(stateDir).map((r) => r.state)).toEqual(['done', 'done']);
    await hook.stop();
  });
});

describe('one receiver down long enough to back off, and the daemon killed with -9', () => {
  it('delivers the closure and the change queued behind it right after the restart, not when the dead process\'s backoff said', async () => {
    const hook = await new WebhookReceiver().start();
    hook.replies.push(...Array.from({ length: 1000 }, () => ({ status: 503 })));
    // A long backoff: after its first refusal, the closure's next attempt is 5-10 minutes away.
    const { file, stateDir } = config(
      'backoff',
      `  group_wait: 2s
  retry: { base_delay: 10m, max_delay: 10m }
  receivers:
    - name: hook
      webhook: { url: "${hook.url}/hook" }
`,
    );
    const first = await startDaemon(file);
    await adminApply({ action: 'set_network', ...NETWORK, set: { withdrawEnable: false, depositDesc: 'Deposits suspended for an upgrade' } });
    await waitFor(() => {
      const rows = outbox(stateDir);
      return rows.length === 2 && rows[0]!.attempts >= 1 && rows[1]!.state === 'pending';
    }, 'the closure refused and the change queued behind it', 30_000);
    await first.kill('SIGKILL');
    const before = outbox(stateDir);
    expect(before.map((r) => [r.state, r.group_key.includes('WithdrawDisabled') ? 'state' : 'change'])).toEqual([['pending', 'state'], ['pending', 'change']]);
    expect(before[0]!.next_at - Date.now()).toBeGreaterThan(240_000);
    const refusedKey = keyOf(hook.refused[0]!);

    hook.replies.length = 0; // the receiver recovers
    const second = await startDaemon(file);
    // Right after the restart, long before the stored backoff (the issue's 60 s, and well within it).
    await waitFor(() => hook.received.length >= 2, 'both notifications after the restart', 20_000);
    await waitFor(() => outbox(stateDir).every((r) => r.state === 'done'), 'the outbox to be done with both', 10_000);
    await second.kill('SIGTERM');
    expect(hook.received.map(alertname)).toEqual(['WithdrawDisabled', 'DepositMessage']);
    expect(keyOf(hook.received[0]!)).toBe(refusedKey);
    expect(new Set(hook.received.map(keyOf)).size).toBe(2);
    await hook.stop();
  });
});

const CLOSED_RULES = `rules:
  - alert: WithdrawClosed
    state: withdraw_disabled
    match: { coin: USDT }
  - alert: DepositClosed
    state: deposit_disabled
    match: { coin: USDT }
`;

/** What a notification says: its group, status and alerts (a notification sent again says the same). */
function said(r: Received): string {
  const b = r.body as { status: string; groupLabels: Record<string, string>; alerts: { status: string; fingerprint: string }[] };
  return `${b.groupLabels.alertname} ${b.status} ${b.alerts.map((a) => `${a.fingerprint}:${a.status}`).join(',')}`;
}

describe('the store file, its WAL and its index deleted while the daemon runs', () => {
  it('is written again as soon as it is noticed, with everything the daemon held, and a SIGTERM and a restart re-send nothing', async () => {
    const hook = await new WebhookReceiver().start();
    writeFileSync(join(dir, 'closed-rules.yaml'), CLOSED_RULES);
    const { file, stateDir } = config(
      'deleted',
      `  group_wait: 0s
  group_interval: 1s
  receivers:
    - name: hook
      webhook: { url: "${hook.url}/hook" }
`,
      'closed-rules.yaml',
    );
    const first = await started(file);
    await adminApply({ action: 'set_network', ...NETWORK, set: { withdrawEnable: false, depositEnable: false } });
    await waitFor(() => hook.received.length === 2, 'both closures told', 30_000);
    const silence = await fetch(`${first.url}/api/v1/silences`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ matchers: [{ name: 'coin', value: 'DOGE', isRegex: false }], endsAt: new Date(Date.now() + 86_400_000).toISOString(), comment: 'kept', createdBy: 'test' }),
    });
    expect(silence.status).toBe(201);

    const db = join(stateDir, 'spotwatch.db');
    for (const ext of ['', '-wal', '-shm']) rmSync(`${db}${ext}`);
    // Noticed at the next look (every 15 s): StoreFailing is told.
    await waitFor(() => hook.received.some((r) => said(r).startsWith('StoreFailing firing')), 'StoreFailing told', 25_000);
    // Within a few seconds the new file holds what the daemon held.
    const held = (): Record<string, number> | undefined => {
      if (!existsSync(db)) return undefined;
      const fresh = new Database(db, { readonly: true, fileMustExist: true });
      try {
        const count = (sql: string): number => (fresh.prepare(sql).get() as { n: number }).n;
        return {
          alerts: count("SELECT COUNT(*) AS n FROM alerts WHERE json_extract(body, '$.labels.alertname') IN ('WithdrawClosed', 'DepositClosed')"),
          nflog: count("SELECT COUNT(*) AS n FROM nflog WHERE group_key LIKE '%WithdrawClosed%' OR group_key LIKE '%DepositClosed%'"),
          outboxDone: count("SELECT COUNT(*) AS n FROM outbox WHERE state = 'done' AND id <= 2"),
          silences: count("SELECT COUNT(*) AS n FROM silences WHERE json_extract(body, '$.comment') = 'kept'"),
          snapshots: count("SELECT COUNT(*) AS n FROM snapshots WHERE exchange = 'main'"),
        };
      } finally {
        fresh.close();
      }
    };
    const expected = { alerts: 2, nflog: 2, outboxDone: 2, silences: 1, snapshots: 2 };
    await waitFor(() => JSON.stringify(held()) === JSON.stringify(expected), `the new store file to hold what the daemon held (${JSON.stringify(held())})`, 3_000);
    const deleted = 'state store file deleted while in use; a new one is written at once from what the daemon holds, the poll path\'s writes wait in memory until the next check';
    const again = 'state store file written again from what the daemon held; the poll path writes to it from the next check';
    // The engine logs once it has written the file; the line reaches this process a moment later.
    await waitFor(() => logged(first.child, again).length > 0, 'the log line of the file written again', 5_000);
    expect([logged(first.child, deleted).length, logged(first.child, again).length]).toEqual([1, 1]);

    // Stopped before the next look.
    await first.child.kill('SIGTERM');
    expect(first.child.exitCode).toBe(0);
    const before = hook.received.map(said);
    expect(before.filter((x) => !x.startsWith('StoreFailing'))).toHaveLength(2);

    const second = await started(file);
    // Ten polls and their flushes after the restart.
    await waitFor(async () => {
      const text = await (await fetch(`${second.url}/metrics`)).text();
      return Number(/spotwatch_poll_duration_seconds_count\{exchange="main",endpoint="coins"\} (\d+)/.exec(text)?.[1] ?? 0) >= 10;
    }, 'ten polls after the restart', 30_000);
    await second.child.kill('SIGTERM');
    expect(second.child.exitCode).toBe(0);
    const after = hook.received.slice(before.length).map(said);
    // Only news: StoreFailing's resolution, if its firing was told.
    expect(after.filter((x) => before.includes(x))).toEqual([]);
    expect(after.every((x) => x.startsWith('StoreFailing resolved'))).toBe(true);
    expect(new Set(hook.received.map(keyOf)).size).toBe(hook.received.length);
    await hook.stop();
  });
});
