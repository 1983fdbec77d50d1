import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, requireBinary } from '../support/binaries';
import { Child, daemonConfig, killAll, spotwatch } from '../support/process';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(180_000);

const ALERTMANAGER = requireBinary(['prometheus-alertmanager', 'alertmanager'], 'prometheus-alertmanager');

let dir: string;
let simUrl: string;
let sim: Child;

const RULES = `rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    match: { coin: USDT }
    severity: critical
`;

function config(name: string, receivers: string, extra = ''): string {
  const notify = `  group_wait: 0s
  group_interval: 1s
  retry: { base_delay: 100ms, max_delay: 500ms, max_age: 10m }
  receivers:
${receivers}
${extra}`;
  return daemonConfig(dir, simUrl, name, notify).file;
}

async function startDaemon(file: string): Promise<{ child: Child; url: string }> {
  const child = spotwatch(['run', '--config', file]);
  const url = await child.ready();
  return { child, url };
}

async function adminApply(action: object): Promise<void> {
  const res = await fetch(`${simUrl}/-/sim/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(action) });
  if (res.status !== 200) throw new Error(`admin API: ${res.status} ${await res.text()}`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-delivery-'));
  writeFileSync(join(dir, 'rules.yaml'), RULES);
  sim = spotwatch(['simulate', '--listen', '127.0.0.1:0', '--coins', '50', '--seed', '2']);
  simUrl = (await sim.output(/reference exchange listening on (http:\/\/\S+)/))[1] as string;
});

afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await adminApply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: true, withdrawDesc: null } });
});

describe('two spotwatch replicas behind one real Alertmanager', () => {
  it('produce exactly one notification per alert, and one resolution', async () => {
    const hook = await new WebhookReceiver().start();
    const port = await freePort();
    writeFileSync(
      join(dir, 'alertmanager.yml'),
      `route:
  receiver: hook
  group_by: [alertname]
  group_wait: 1s
  group_interval: 2s
  repeat_interval: 1h
receivers:
  - name: hook
    webhook_configs:
      - url: ${hook.url}/am
        send_resolved: true
`,
    );
    new Child(ALERTMANAGER, [`--config.file=${join(dir, 'alertmanager.yml')}`, `--storage.path=${join(dir, 'am')}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address=']);
    const am = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${am}/-/ready`).catch(() => undefined))?.status === 200, 'Alertmanager to be ready', 30_000);

    const receivers = `    - name: am\n      alertmanager: { url: "${am}", resend_interval: 2s }\n`;
    const a = await startDaemon(config('replica-a', receivers));
    const b = await startDaemon(config('replica-b', receivers));

    await adminApply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false, withdrawDesc: 'Maintenance' } });
    await waitFor(() => hook.received.length >= 1, 'the firing notification from Alertmanager', 60_000);
    // Both replicas keep pushing every 2 s; Alertmanager keeps it one alert.
    await waitFor(async () => {
      const alerts = (await (await fetch(`${am}/api/v2/alerts`)).json()) as unknown[];
      return alerts.length === 1;
    }, 'Alertmanager to hold one alert');
    await adminApply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: true, withdrawDesc: null } });
    await waitFor(() => hook.received.some((r) => (r.body as { status: string }).status === 'resolved'), 'the resolution', 60_000);

    const bodies = hook.received.map((r) => r.body as { status: string; alerts: { status: string; labels: Record<string, string>; annotations: Record<string, string> }[] });
    expect(bodies.map((b) => `${b.status}:${b.alerts.length}`)).toEqual(['firing:1', 'resolved:1']);
    expect(bodies[0]?.alerts[0]?.labels).toEqual({ alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: 'USDT', network: 'Tron(TRC20)', chain: 'tron', kind: 'withdraw_disabled' });
    expect(bodies[0]?.alerts[0]?.annotations.withdraw_desc).toBe('Maintenance');
    await a.child.kill();
    await b.child.kill();
    await hook.stop();
  });
});

describe('a receiver down and a daemon killed with -9', () => {
  it('still delivers every accepted notification, once, after the restart', async () => {
    const hook = await new WebhookReceiver().start();
    const hookUrl = hook.url;
    // The receiver refuses everything for now.
    hook.replies.push(...Array.from({ length: 1000 }, () => ({ status: 503 })));
    const file = config('durable', `    - name: hook\n      webhook: { url: "${hookUrl}/hook" }\n`);
    const first = await startDaemon(file);
    await adminApply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false, withdrawDesc: 'Maintenance' } });
    // Accepted: in the outbox, pending, and the receiver has been tried.
    await waitFor(async () => {
      const text = await (await fetch(`${first.url}/metrics`)).text();
      return /spotwatch_outbox_pending\{receiver="hook"\} 1/.test(text) && /spotwatch_notifications_total\{receiver="hook",outcome="retry"\} [1-9]/.test(text);
    }, 'the notification to wait in the outbox', 30_000);
    await first.child.kill('SIGKILL');

    hook.replies.length = 0; // the receiver recovers
    const second = await startDaemon(file);
    await waitFor(() => hook.received.length === 1, 'the delivery after the restart', 30_000);
    const body = hook.received[0]?.body as { status: string; alerts: { labels: Record<string, string> }[] };
    expect(body.status).toBe('firing');
    expect(body.alerts.map((x) => x.labels.alertname)).toEqual(['WithdrawDisabled']);
    // Resolution arrives once too, and nothing is sent twice.
    await adminApply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: true, withdrawDesc: null } });
    await waitFor(() => hook.received.length === 2, 'the resolution', 30_000);
    expect((hook.received[1]?.body as { status: string }).status).toBe('resolved');
    await second.child.kill('SIGTERM');
    expect(second.child.exitCode).toBe(0);
    expect(hook.received).toHaveLength(2);
    await hook.stop();
  });
});
