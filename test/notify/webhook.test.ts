import { createHmac } from 'node:crypto';
import { buildDelivery } from '../../src/notify/pipeline/build-delivery';
import type { Alert } from '../../src/alerts/alert';
import { NotifyError } from '../../src/notify/notifier';
import { upstreamText } from '../../src/lib/upstream-text';
import { DEFAULT_WEBHOOK_MAX_BODY_BYTES } from '../../src/notify/webhook/schema';
import { webhookNotifier } from '../../src/notify/webhook/webhook';
import { WebhookReceiver } from '../support/webhook-receiver';
import { receiverDeps } from '../support/receiver-deps';

/** A connection pool per test, closed after it, as each notifier used to open and close its own. */
let deps: ReturnType<typeof receiverDeps>;
beforeEach(() => {
  deps = receiverDeps();
});
afterEach(() => deps.close());

const firing: Alert = {
  fingerprint: '0123456789abcdef', ruleId: 'r', entity: 'e',
  labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: 'USDT', network: 'Tron(TRC20)', kind: 'withdraw_disabled' },
  annotations: { summary: 'USDT withdrawals closed on Tron(TRC20) (main)', description: 'Exchange message: <b>Maint</b>\r\nBcc: x', withdraw_desc: '<b>Maint</b>\r\nBcc: x' },
  status: 'firing', activeAt: Date.UTC(2026, 0, 2, 3, 4, 5), startsAt: Date.UTC(2026, 0, 2, 3, 4, 5), endsAt: null, lastActiveAt: 0, lastNotifiedAt: 0, value: 1, event: false,
};

describe('webhook receiver', () => {
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await new WebhookReceiver().start();
  });
  afterEach(() => receiver.stop());

  it('posts the notification JSON the outbox already holds as the body, signed as sent, instead of serializing it again', async () => {
    const hook = webhookNotifier({ name: 'hook', url: `${receiver.url}/hook`, timeoutMs: 2000, secret: 's3cret' }, deps);
    const delivery = buildDelivery('hook', { exchange: 'main', alertname: 'WithdrawDisabled' }, [firing], 'http://sw:9464', 1000);
    // Indented, to show it goes verbatim (the outbox's own is compact).
    const json = JSON.stringify(delivery.notification, null, 2);
    await hook.send(delivery, undefined, json);
    await hook.close?.();
    const got = receiver.received[0]!;
    expect(got.raw).toBe(json);
    expect(got.headers['x-spotwatch-signature']).toBe(`sha256=${createHmac('sha256', 's3cret').update(json).digest('hex')}`);
  });

  it('posts the Alertmanager version 4 body, signed, with an idempotency key', async () => {
    const hook = webhookNotifier({ name: 'hook', url: `${receiver.url}/hook?x=1`, timeoutMs: 2000, secret: 's3cret', headers: { 'X-Team': 'desk' } }, deps);
    const delivery = buildDelivery('hook', { exchange: 'main', alertname: 'WithdrawDisabled' }, [firing], 'http://sw:9464', 1000);
    await hook.send(delivery);
    await hook.close?.();
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.method).toBe('POST');
    expect(got.path).toBe('/hook?x=1');
    expect(got.body).toEqual({
      version: '4',
      groupKey: '{}:{alertname="WithdrawDisabled",exchange="main"}',
      truncatedAlerts: 0,
      status: 'firing',
      receiver: 'hook',
      groupLabels: { exchange: 'main', alertname: 'WithdrawDisabled' },
      commonLabels: firing.labels,
      commonAnnotations: firing.annotations,
      externalURL: 'http://sw:9464',
      alerts: [
        {
          status: 'firing',
          labels: firing.labels,
          annotations: firing.annotations,
          startsAt: '2026-01-02T03:04:05.000Z',
          endsAt: '0001-01-01T00:00:00Z',
          generatorURL: 'http://sw:9464/#0123456789abcdef',
          fingerprint: '0123456789abcdef',
        },
      ],
    });
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-team']).toBe('desk');
    expect(got.headers['idempotency-key']).toBe(delivery.idempotencyKey);
    expect(got.headers['x-spotwatch-signature']).toBe(`sha256=${createHmac('sha256', 's3cret').update(got.raw).digest('hex')}`);
  });

  it('sends a resolved alert with the same fingerprint and its endsAt', async () => {
    const hook = webhookNotifier({ name: 'hook', url: receiver.url, timeoutMs: 2000 }, deps);
    const resolved: Alert = { ...firing, status: 'resolved', endsAt: Date.UTC(2026, 0, 2, 4, 0, 0) };
    await hook.send(buildDelivery('hook', {}, [resolved], 'http://sw', 1));
    await hook.close?.();
    const body = receiver.received[0]?.body as { status: string; alerts: { status: string; endsAt: string; fingerprint: string }[] };
    expect(body.status).toBe('resolved');
    expect(body.alerts.map((a) => [a.status, a.endsAt, a.fingerprint])).toEqual([['resolved', '2026-01-02T04:00:00.000Z', '0123456789abcdef']]);
    expect(receiver.received[0]?.headers['x-spotwatch-signature']).toBeUndefined();
  });

  it('keeps the idempotency key of a delivery the same on every attempt', () => {
    const a = buildDelivery('hook', { exchange: 'main' }, [firing], 'http://sw', 1000);
    const b = buildDelivery('hook', { exchange: 'main' }, [firing], 'http://sw', 1000);
    const later = buildDelivery('hook', { exchange: 'main' }, [firing], 'http://sw', 2000);
    expect(a.idempotencyKey).toBe(b.idempotencyKey);
    expect(a.idempotencyKey).not.toBe(later.idempotencyKey);
    expect(a.idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
  });

  it('truncates to max_alerts and counts the rest', async () => {
    const hook = webhookNotifier({ name: 'hook', url: receiver.url, timeoutMs: 2000, maxAlerts: 1 }, deps);
    await hook.send(buildDelivery('hook', {}, [firing, { ...firing, fingerprint: 'ffffffffffffffff' }], 'http://sw', 1));
    await hook.close?.();
    const body = receiver.received[0]?.body as { truncatedAlerts: number; alerts: unknown[] };
    expect([body.truncatedAlerts, body.alerts.length]).toEqual([1, 1]);
  });

  describe('a storm of 4,000 alerts, each with a 100 KB exchange message as it enters (cut to 1,000 characters)', () => {
    const message = upstreamText('€ maintenance '.repeat(7_200));
    const storm = Array.from({ length: 4000 }, (_, i): Alert => ({
      ...firing,
      fingerprint: i.toString(16).padStart(16, '0'),
      labels: { ...firing.labels, coin: `C${String(i).padStart(4, '0')}` },
      annotations: { ...firing.annotations, description: `Exchange message: ${message}`, withdraw_desc: message },
    }));
    const delivery = buildDelivery('hook', { exchange: 'main', alertname: 'WithdrawDisabled' }, storm, 'http://sw', 1);
    type Body = { truncatedAlerts: number; alerts: { fingerprint: string }[] };

    it('keeps the version 4 body within max_body_bytes (default 1 MiB): the most alerts that fit, from the first, the rest counted in truncatedAlerts', async () => {
      expect(DEFAULT_WEBHOOK_MAX_BODY_BYTES).toBe(1_048_576);
      const hook = webhookNotifier({ name: 'hook', url: receiver.url, timeoutMs: 5000, maxBodyBytes: DEFAULT_WEBHOOK_MAX_BODY_BYTES }, deps);
      // As the outbox hands it over: with the notification's JSON, 26 MB, at hand.
      await hook.send(delivery, undefined, JSON.stringify(delivery.notification));
      await hook.close?.();
      const got = receiver.received[0]!;
      const body = got.body as Body;
      expect(Buffer.byteLength(got.raw)).toBeLessThanOrEqual(1_048_576);
      expect(body.alerts.length).toBeGreaterThan(100);
      expect(body.truncatedAlerts).toBe(4000 - body.alerts.length);
      expect(body.alerts.map((a) => a.fingerprint)).toEqual(delivery.notification.alerts.slice(0, body.alerts.length).map((a) => a.fingerprint));
      // One alert more would not have fitted.
      const more = { ...delivery.notification, alerts: delivery.notification.alerts.slice(0, body.alerts.length + 1), truncatedAlerts: body.truncatedAlerts - 1 };
      expect(Buffer.byteLength(JSON.stringify(more))).toBeGreaterThan(1_048_576);
    });

    it('keeps a templated body within max_body_bytes too', async () => {
      const hook = webhookNotifier({ name: 'hook', url: receiver.url, timeoutMs: 5000, maxBodyBytes: 200_000, bodyTemplate: '{"n":{{count}},"alerts":{{alerts_json}}}' }, deps);
      await hook.send(delivery);
      await hook.close?.();
      const got = receiver.received[0]!;
      const body = got.body as { n: number; alerts: unknown[] };
      expect(Buffer.byteLength(got.raw)).toBeLessThanOrEqual(200_000);
      expect(body.n).toBe(body.alerts.length);
      expect(body.alerts.length).toBeGreaterThan(10);
    });

    it('sends every alert with max_body_bytes 0', async () => {
      const hook = webhookNotifier({ name: 'hook', url: receiver.url, timeoutMs: 5000, maxBodyBytes: 0 }, deps);
      await hook.send(delivery);
      await hook.close?.();
      expect((receiver.received[0]?.body as Body).alerts).toHaveLength(4000);
    });
  });

  it.each([
    [{ status: 500 }, 'server_error', true, undefined],
    [{ status: 503 }, 'server_error', true, undefined],
    [{ status: 429, retryAfter: '7' }, 'rate_limited', true, 7000],
    [{ status: 400 }, 'client_error', false, undefined],
    [{ status: 404 }, 'client_error', false, undefined],
  ])('classifies an answer of %p', async (reply, reason, retryable, retryAfterMs) => {
    receiver.replies.push(reply);
    const hook = webhookNotifier({ name: 'hook', url: receiver.url, timeoutMs: 2000 }, deps);
    const err = await hook.send(buildDelivery('hook', {}, [firing], 'http://sw', 1)).catch((e: unknown) => e);
    await hook.close?.();
    expect(err).toBeInstanceOf(NotifyError);
    expect(err).toMatchObject({ reason, retryable, retryAfterMs, message: `webhook answered HTTP ${reply.status}` });
  });

  it('classifies a timeout and a refused connection as retryable', async () => {
    receiver.replies.push({ status: 200, delayMs: 1000 });
    const slow = webhookNotifier({ name: 'hook', url: receiver.url, timeoutMs: 100 }, deps);
    await expect(slow.send(buildDelivery('hook', {}, [firing], 'http://sw', 1))).rejects.toMatchObject({ reason: 'timeout', retryable: true });
    await slow.close?.();
    const url = receiver.url;
    await receiver.stop();
    const refused = webhookNotifier({ name: 'hook', url, timeoutMs: 1000 }, deps);
    await expect(refused.send(buildDelivery('hook', {}, [firing], 'http://sw', 1))).rejects.toMatchObject({ reason: 'connect', retryable: true });
    await refused.close?.();
  });
});

describe('webhook body template', () => {
  it('renders a body of your own, with upstream text escaped for JSON', async () => {
    const receiver = await new WebhookReceiver().start();
    const hook = webhookNotifier({
      name: 'chat',
      url: receiver.url,
      timeoutMs: 2000,
      bodyTemplate: '{"text":"{{status}}: {{commonAnnotations.summary}} ({{count}})","detail":"{{alerts_text}}","alerts":{{alerts_json}}}',
    }, deps);
    const hostile: Alert = { ...firing, annotations: { ...firing.annotations, summary: 'say "hi"\n\\ <b>' } };
    await hook.send(buildDelivery('chat', {}, [hostile], 'http://sw', 1));
    await hook.close?.();
    await receiver.stop();
    const body = receiver.received[0]?.body as { text: string; detail: string; alerts: { fingerprint: string }[] };
    expect(body.text).toBe('firing: say "hi"\n\\ <b> (1)');
    expect(body.detail).toMatch(/^FIRING {2}say "hi" \\ <b> {2}\[main \/ USDT \/ Tron\(TRC20\)\] since 2026-01-02T03:04:05.000Z {2}message: <b>Maint<\/b> Bcc: x$/);
    expect(body.alerts.map((a) => a.fingerprint)).toEqual(['0123456789abcdef']);
    expect(receiver.received[0]?.headers['content-type']).toBe('application/json');
  });
});

describe('webhook receiver and a busy event loop', () => {
  it('a receiver that answered at once is not reported as timed out because our own loop was blocked past the timeout', async () => {
    const { createServer } = await import('node:http');
    let posts = 0;
    // Answers at once, then blocks this process (the sender's loop too) for 3x the timeout:
    // the answer waits in the socket while the sender's timer is overdue.
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        posts++;
        res.end();
        const until = Date.now() + 600;
        while (Date.now() < until) {
          // a stalled event loop
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const hook = webhookNotifier({ name: 'hook', url: `http://127.0.0.1:${port}/hook`, timeoutMs: 200 }, deps);
    try {
      await expect(hook.send(buildDelivery('hook', {}, [firing], 'http://sw', 1000))).resolves.toBeUndefined();
      expect(posts).toBe(1);
    } finally {
      await hook.close?.();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('a receiver that does not answer still times out', async () => {
    const { createServer } = await import('node:http');
    const server = createServer(() => undefined);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const hook = webhookNotifier({ name: 'hook', url: `http://127.0.0.1:${port}/hook`, timeoutMs: 200 }, deps);
    try {
      await expect(hook.send(buildDelivery('hook', {}, [firing], 'http://sw', 1000))).rejects.toMatchObject({ reason: 'timeout', retryable: true, message: 'webhook did not answer within 200 ms' });
    } finally {
      await hook.close?.();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
