import type { Alert } from '../../src/alerts/alert';
import { buildDelivery } from '../../src/notify/pipeline/build-delivery';
import { alertmanagerNotifier } from '../../src/notify/alertmanager/alertmanager';
import { WebhookReceiver } from '../support/webhook-receiver';
import { receiverDeps } from '../support/receiver-deps';

// An 8,000-alert storm takes about 2 s here and more on a loaded machine: no test of this file is bound by its speed.
jest.setTimeout(60_000);

/** A connection pool per test, closed after it, as each notifier used to open and close its own. */
let deps: ReturnType<typeof receiverDeps>;
beforeEach(() => {
  deps = receiverDeps();
});
afterEach(() => deps.close());

const alert: Alert = {
  fingerprint: '0123456789abcdef', ruleId: 'r', entity: 'e',
  labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: 'USDT' },
  annotations: { summary: 's' }, status: 'firing', activeAt: 0, startsAt: Date.UTC(2026, 0, 1), endsAt: null, lastActiveAt: 0, lastNotifiedAt: 0, value: 1, event: false,
};

describe('alertmanager receiver', () => {
  let am: WebhookReceiver;
  beforeEach(async () => {
    am = await new WebhookReceiver().start();
  });
  afterEach(() => am.stop());

  it('posts firing alerts without endsAt and resolved ones with it to /api/v2/alerts', async () => {
    const n = alertmanagerNotifier({ name: 'am', url: `${am.url}/prefix/`, timeoutMs: 1000, maxBodyBytes: 0 }, deps);
    await n.send(buildDelivery('am', {}, [alert, { ...alert, fingerprint: 'f2', status: 'resolved', endsAt: Date.UTC(2026, 0, 2) }], 'http://sw', 1));
    await n.close?.();
    expect(am.received[0]?.path).toBe('/prefix/api/v2/alerts');
    expect(am.received[0]?.body).toEqual([
      { labels: alert.labels, annotations: alert.annotations, startsAt: '2026-01-01T00:00:00.000Z', generatorURL: 'http://sw/#0123456789abcdef' },
      { labels: alert.labels, annotations: alert.annotations, startsAt: '2026-01-01T00:00:00.000Z', endsAt: '2026-01-02T00:00:00.000Z', generatorURL: 'http://sw/#f2' },
    ]);
  });

  it("splits a storm's 8,000 alerts with long annotations into posts under max_body_bytes, in order, each alert exactly once", async () => {
    // Every alert the same size as sent: 1,000 characters of description (the cap on upstream text).
    const storm: Alert[] = Array.from({ length: 8_000 }, (_, i) => {
      const id = String(i).padStart(4, '0');
      return { ...alert, fingerprint: `f${id}`, labels: { ...alert.labels, coin: `C${id}` }, annotations: { summary: `C${id} closed`, description: 'x'.repeat(1_000) } };
    });
    const n = alertmanagerNotifier({ name: 'am', url: am.url, timeoutMs: 5000, maxBodyBytes: 1024 * 1024 }, deps);
    await n.send(buildDelivery('am', {}, storm, 'http://sw', 1));
    await n.close?.();
    const bodies = am.received.map((r) => r.body as { labels: { coin: string }; generatorURL: string }[]);
    // 1,229 bytes an alert and its comma: (1,048,576 - 1) / 1,229 = 853 alerts a post.
    expect(JSON.stringify(bodies[0]?.[0]).length).toBe(1_228);
    expect(bodies.map((b) => b.length)).toEqual([853, 853, 853, 853, 853, 853, 853, 853, 853, 323]);
    expect(am.received.map((r) => Buffer.byteLength(r.raw) <= 1024 * 1024)).toEqual(Array(10).fill(true));
    expect(am.received.map((r) => r.path)).toEqual(Array(10).fill('/api/v2/alerts'));
    expect(bodies.flat().map((a) => a.generatorURL)).toEqual(storm.map((a) => `http://sw/#${a.fingerprint}`));
  });

  it('posts an alert larger than max_body_bytes alone, not left out', async () => {
    const n = alertmanagerNotifier({ name: 'am', url: am.url, timeoutMs: 1000, maxBodyBytes: 300 }, deps);
    const long = { ...alert, fingerprint: 'long', annotations: { summary: 'y'.repeat(400) } };
    await n.send(buildDelivery('am', {}, [alert, long, { ...alert, fingerprint: 'f3' }], 'http://sw', 1));
    await n.close?.();
    expect(am.received.map((r) => (r.body as { generatorURL: string }[]).map((a) => a.generatorURL))).toEqual([['http://sw/#0123456789abcdef'], ['http://sw/#long'], ['http://sw/#f3']]);
  });

  it.each([
    [500, 'server_error', true, undefined],
    [400, 'client_error', false, undefined],
    [429, 'rate_limited', true, 4000],
  ])('classifies HTTP %p', async (status, reason, retryable, retryAfterMs) => {
    am.replies.push({ status, retryAfter: '4' });
    const n = alertmanagerNotifier({ name: 'am', url: am.url, timeoutMs: 1000, maxBodyBytes: 0 }, deps);
    await expect(n.send(buildDelivery('am', {}, [alert], 'http://sw', 1))).rejects.toMatchObject({ reason, retryable, retryAfterMs, message: `Alertmanager answered HTTP ${status}` });
    await n.close?.();
  });
});
