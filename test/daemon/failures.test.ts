import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stack, type Stack } from '../support/daemon-harness';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(60_000);

const SECRET = 'sk-dead-letter-secret-4711';

/** The value of one series in the exposition text (undefined when absent). */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Each receiver fails one way, and how it is told: reason, and the error kept with the dead letter. */
const WAYS = [
  { receiver: 'refuses', reason: 'client_error', error: 'webhook answered HTTP 400' },
  { receiver: 'broken', reason: 'server_error', error: 'webhook answered HTTP 502' },
  { receiver: 'limited', reason: 'rate_limited', error: 'webhook answered HTTP 429' },
  { receiver: 'slow', reason: 'timeout', error: 'webhook did not answer within 150 ms' },
  { receiver: 'gone', reason: 'connect', error: 'webhook unreachable (ECONNREFUSED)' },
] as const;
const REASONS = ['client_error', 'server_error', 'rate_limited', 'timeout', 'connect', 'other'];

describe('failed notifications show', () => {
  let s: Stack;
  let url: string;
  const servers: WebhookReceiver[] = [];

  beforeAll(async () => {
    const answer = async (status: number, delayMs?: number): Promise<WebhookReceiver> => {
      const r = await new WebhookReceiver().start();
      for (let i = 0; i < 100; i++) r.replies.push({ status, ...(delayMs !== undefined && { delayMs }), ...(status === 429 && { retryAfter: '0.05' }) });
      servers.push(r);
      return r;
    };
    const [refuses, broken, limited, slow] = [await answer(400), await answer(502), await answer(429), await answer(200, 400)];
    const gone = await closedPort();
    s = await stack('rules:\n  - alert: Fee\n    change: withdraw_fee_changed\n', {
      coins: 10,
      receivers: () => `    - name: refuses
      webhook: { url: "${refuses?.url}/hook", headers: { authorization: "Bearer ${SECRET}" }, secret: "${SECRET}" }
    - name: broken
      webhook: { url: "${broken?.url}/hook" }
    - name: limited
      webhook: { url: "${limited?.url}/hook" }
    - name: slow
      webhook: { url: "${slow?.url}/hook", timeout: 150ms }
    - name: gone
      webhook: { url: "http://127.0.0.1:${gone}/hook" }
`,
      // Retried quickly, and given up on after a second: every receiver ends in the dead letters.
      // (Indented: a key of `notify`.)
      extraConfig: '  retry: { base_delay: 50ms, max_delay: 100ms, max_age: 1s }\n',
    });
    await s.start();
    url = s.daemon?.url as string;
    s.sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawFee: '0.00042' } });
    await waitFor(async () => {
      const text = await (await fetch(`${url}/metrics`)).text();
      return WAYS.every((w) => value(text, `spotwatch_dead_letters{receiver="${w.receiver}"}`) === 1);
    }, 'a dead letter for every receiver', 20_000);
  });

  afterAll(async () => {
    await s?.close();
    for (const r of servers) await r.stop();
  });

  it('counts every failed attempt by receiver and reason, and every dead letter', async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    for (const w of WAYS) {
      const retried = value(text, `spotwatch_notifications_total{receiver="${w.receiver}",outcome="retry"}`) as number;
      const failed = value(text, `spotwatch_notifications_total{receiver="${w.receiver}",outcome="failed"}`);
      const byReason = Object.fromEntries(REASONS.map((r) => [r, value(text, `spotwatch_notifications_failed_total{receiver="${w.receiver}",reason="${r}"}`)]));
      // A 400 is not retried; the others are, until the delivery is a second old.
      expect({ receiver: w.receiver, failed, retried: w.reason === 'client_error' ? retried : retried > 0, byReason }).toEqual({
        receiver: w.receiver,
        failed: 1,
        retried: w.reason === 'client_error' ? 0 : true,
        byReason: Object.fromEntries(REASONS.map((r) => [r, r === w.reason ? retried + 1 : 0])),
      });
      expect(value(text, `spotwatch_dead_letters{receiver="${w.receiver}"}`)).toBe(1);
    }
  });

  it('lists the dead letters in the API, newest first, a page at a time, without secrets', async () => {
    const get = async (query: string) => (await fetch(`${url}/api/v1/dead-letters${query}`)).json() as Promise<{ data: { id: number; receiver: string; error: string; attempts: number; notification: { alerts: { labels: Record<string, string> }[] } }[]; next: string | null }>;
    const all = await get('');
    expect(all.next).toBeNull();
    expect(all.data.map((d) => [d.receiver, d.error, d.notification.alerts.map((a) => a.labels.kind)]).sort()).toEqual(
      WAYS.map((w) => [w.receiver, w.error, ['withdraw_fee_changed']]).sort(),
    );
    const ids = all.data.map((d) => d.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const first = await get('?limit=2');
    expect(first.data.map((d) => d.id)).toEqual(ids.slice(0, 2));
    expect(first.next).toBe(String(ids[1]));
    const second = await get(`?limit=2&before=${first.next}`);
    expect(second.data.map((d) => d.id)).toEqual(ids.slice(2, 4));
    const third = await get(`?limit=2&before=${second.next}`);
    expect(third.data.map((d) => d.id)).toEqual(ids.slice(4));
    expect(third.next).toBeNull();

    expect((await fetch(`${url}/api/v1/dead-letters?limit=0`)).status).toBe(400);
    expect((await fetch(`${url}/api/v1/dead-letters?before=x`)).status).toBe(400);
    expect(JSON.stringify(all)).not.toContain(SECRET);
  });
});
