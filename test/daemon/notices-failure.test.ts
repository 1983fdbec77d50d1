/**
 * A notice source that fails (notices.md section 6): counted by kind, logged once per run of
 * failures, and nothing else changes — the exchange's polls go on, no ExchangeDown, a known
 * window neither vanishes nor resolves its alert.
 */
import { ExchangeDouble } from '../support/exchange-double';
import { capturedLogger } from '../support/log-capture';
import { waitFor } from '../support/wait';
import type { WebhookBody } from '../support/daemon-harness';
import { dialectStack, exchange, type DialectStack } from './dialects-stack';

jest.setTimeout(60_000);

const { logger, lines: logs } = capturedLogger('info');
let s: DialectStack;
let double: ExchangeDouble;

beforeAll(async () => {
  s = await dialectStack(
    'kucoin',
    'rules:\n  - alert: MaintenanceNow\n    maintenance: ongoing\n',
    async (sim) => {
      double = await new ExchangeDouble(sim.url).start();
      // KuCoin signs nothing (the double passes requests on as they are); its windows come from the Statuspage.
      return `${exchange('ex', 'kucoin', sim.url)}    notices: { poll: 150ms, statuspage: ${double.url}/-/statuspage }\n`;
    },
    { logger },
  );
});
afterAll(async () => {
  await s.close();
  await double.stop();
});

const failedReads = async (): Promise<Record<string, number>> => {
  const text = await (await fetch(`${s.url}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^spotwatch_notice_errors_total\{exchange="ex",source="statuspage",kind="(\w+)"\} (\d+)$/gm)) out[m[1] as string] = Number(m[2]);
  return out;
};

it('counts each way a read fails, logs the run of failures once, and changes nothing else', async () => {
  const res = await fetch(`${s.sim.url}/-/sim/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ action: 'schedule_maintenance', id: 'w1', title: 'Spot upgrade', duration: '1h', scope: 'trading' }]) });
  expect(res.status).toBe(200);
  const told = (): { status: string; labels: Record<string, string> }[] => s.hook.received.flatMap((r) => (r.body as WebhookBody).alerts);
  await waitFor(() => told().some((a) => a.labels.alertname === 'MaintenanceNow'), 'the window told as under way');

  // The Statuspage fails: HTTP 500, a wrong shape, a body that is not JSON.
  const faults = [
    { status: 500, body: 'upstream error' },
    { status: 200, body: '{"page":{"id":"x"},"incidents":"none"}' },
    { status: 200, body: '<html>maintenance page</html>' },
  ];
  let n = 0;
  double.respond = (path, upstream) => (path.startsWith('/-/statuspage/') ? faults[n++ % faults.length]! : upstream());
  await waitFor(async () => {
    const f = await failedReads();
    return (f.http ?? 0) >= 1 && (f.schema ?? 0) >= 2;
  }, 'each way counted');

  const failures = logs.filter((l) => l.msg === 'notice read failed' && l.source === 'statuspage');
  expect(failures).toHaveLength(1);
  // Nothing else changed: the window is still known and under way, its alert still firing, the exchange up.
  const api = (await (await fetch(`${s.url}/api/v1/notices?exchange=ex&kind=maintenance`)).json()) as { maintenance: { id: string; state: string }[] };
  expect(api.maintenance.map((w) => [w.id, w.state])).toEqual([['w1', 'ongoing']]);
  expect(told().filter((a) => a.status === 'resolved')).toEqual([]);
  expect(told().filter((a) => a.labels.alertname === 'ExchangeDown')).toEqual([]);
  const metrics = await (await fetch(`${s.url}/metrics`)).text();
  expect(metrics).toContain('spotwatch_up{exchange="ex"} 1');

  // Answering again: one line says so.
  double.respond = (_path, upstream) => upstream();
  await waitFor(() => logs.some((l) => l.msg === 'notice read succeeded again' && l.source === 'statuspage'), 'the source answering again');
  expect(logs.filter((l) => l.msg === 'notice read failed' && l.source === 'statuspage')).toHaveLength(1);
});
