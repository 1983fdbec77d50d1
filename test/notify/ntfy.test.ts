import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { main } from '../../src/cli';
import { parseConfig, redactConfig } from '../../src/config';
import { NotifyError, type Delivery, type Notifier } from '../../src/notify/notifier';
import { ntfy } from '../../src/notify/ntfy';
import type { NtfyConfig } from '../../src/notify/ntfy/schema';
import { NTFY_PASSWORD, NTFY_TOKEN, NTFY_TOPIC, NTFY_USER, NtfyDouble } from '../support/doubles/ntfy';
import { buildDelivery } from '../../src/notify/pipeline/build-delivery';
import { closed, delivery, descSet, EXTERNAL_URL, HOSTILE, HUGE, perTest, rejection, reopened, storm } from './chat-fixtures';

const env = perTest(() => new NtfyDouble());

/** The receiver as the registry builds it from an `ntfy:` block. */
function notifier(over: Partial<NtfyConfig> = {}): Notifier {
  return ntfy.create('phone', { url: env.double.url, topic: NTFY_TOPIC, token: NTFY_TOKEN, timeout: 2000, ...over }, env.deps);
}

const TRC_TEXT = '🔴 USDT withdrawals disabled on Tron(TRC20) (main)\nmain · USDT · Tron(TRC20) · tron, since 2026-01-02 03:04:05 UTC\nMessage: Wallet maintenance';
const TRC = {
  topic: NTFY_TOPIC,
  message: TRC_TEXT,
  title: '[FIRING:1] WithdrawDisabled main',
  tags: ['red_circle', 'main'],
  priority: 5,
  click: 'http://sw.example:9464/#72e6ada129d8b016',
  markdown: false,
  by: 'token',
};

/** Sends `d` as the retry stage would: again after each rate limit, once the double's (fast) bucket has a request again; the rate limits met. */
async function sendThroughLimits(phone: Notifier, d: Delivery): Promise<NotifyError[]> {
  const limits: NotifyError[] = [];
  for (;;) {
    const err = await phone.send(d).then(() => undefined, (e: unknown) => e);
    if (err === undefined) return limits;
    if (!(err instanceof NotifyError) || err.reason !== 'rate_limited') throw err;
    limits.push(err);
    await new Promise((resolve) => setTimeout(resolve, env.double.refillMs));
  }
}

describe('ntfy receiver', () => {
  it('publishes a group as JSON to the server root: title, plain text, urgent for critical, a tag, a click to the alert, the bearer token', async () => {
    await notifier().send(delivery([closed()]));
    const req = env.double.requests[0];
    expect([req?.method, req?.path, req?.headers['content-type'], req?.headers.authorization]).toEqual(['POST', '/', 'application/json', `Bearer ${NTFY_TOKEN}`]);
    expect(req?.json).toEqual({ topic: NTFY_TOPIC, title: '[FIRING:1] WithdrawDisabled main', message: TRC_TEXT, tags: ['red_circle', 'main'], priority: 5, click: 'http://sw.example:9464/#72e6ada129d8b016' });
    expect(env.double.notifications).toEqual([TRC]);
  });

  it('publishes to a self-hosted server under a path with a user and password (Basic)', async () => {
    await notifier({ url: `${env.double.url}/ntfy`, token: undefined, username: NTFY_USER, password: NTFY_PASSWORD }).send(delivery([closed()]));
    expect(env.double.requests[0]?.path).toBe('/ntfy/');
    expect(env.double.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from('phil:mypass').toString('base64')}`);
    expect(env.double.notifications).toEqual([{ ...TRC, by: NTFY_USER }]);
  });

  it('publishes to an open topic with no credentials', async () => {
    env.double.protect = false;
    await notifier({ token: undefined }).send(delivery([closed()]));
    expect(env.double.requests[0]?.headers.authorization).toBeUndefined();
    expect(env.double.notifications).toEqual([{ ...TRC, by: 'anonymous' }]);
  });

  it('takes the priority from the most severe firing alert: critical urgent (5), error high (4), warning default (3), info low (2), resolved low (2)', async () => {
    for (const severity of ['critical', 'error', 'warning', 'info', 'other']) await notifier().send(delivery([closed('m', { severity }), closed('m', { severity: 'info', network: 'X' })]));
    await notifier().send(delivery([reopened(closed())]));
    expect(env.double.notifications.map((n) => [n.priority, n.tags])).toEqual([
      [5, ['red_circle', 'main']], [4, ['orange_circle', 'main']], [3, ['yellow_circle', 'main']], [2, ['large_blue_circle', 'main']], [3, ['large_blue_circle', 'main']],
      [2, ['white_check_mark', 'main']],
    ]);
  });

  it('says a resolved alert resolved, and when', async () => {
    await notifier().send(delivery([reopened(closed())]));
    expect(env.double.notifications[0]).toEqual({
      ...TRC,
      title: '[RESOLVED] WithdrawDisabled main',
      message: '✅ Resolved: USDT withdrawals disabled on Tron(TRC20) (main)\nmain · USDT · Tron(TRC20) · tron, resolved 2026-01-02 04:04:05 UTC\nMessage: Wallet maintenance',
      tags: ['white_check_mark', 'main'],
      priority: 2,
    });
  });

  it('keeps a hostile withdrawDesc inert: plain text (markdown off), on its line, exactly as the exchange wrote it otherwise', async () => {
    const hostile = `${HOSTILE}\r\n# Heading\n[x](javascript:alert(1)) \u0007bell`;
    await notifier().send(delivery([closed(hostile), descSet(hostile)]));
    const n = env.double.notifications[0];
    expect(n?.markdown).toBe(false);
    expect(env.double.requests[0]?.json).not.toHaveProperty('markdown');
    expect(n?.message).toBe([
      '🔴 USDT withdrawals disabled on Tron(TRC20) (main)',
      'main · USDT · Tron(TRC20) · tron, since 2026-01-02 03:04:05 UTC',
      `Message: ${HOSTILE} # Heading [x](javascript:alert(1))  bell`,
      '',
      '🔵 USDT on Tron(TRC20): withdraw desc set (main)',
      'main · USDT · Tron(TRC20), since 2026-01-02 03:04:05 UTC',
      `Message: ${HOSTILE} # Heading [x](javascript:alert(1))  bell`,
    ].join('\n'));
    expect(n?.click).toBe(TRC.click);
  });

  it('cuts one alert\'s huge message so that the alert still fits in a message', async () => {
    await notifier().send(delivery([closed(HUGE)]));
    const n = env.double.notifications[0];
    expect(n?.attachment).toBeUndefined();
    expect(Buffer.byteLength(n?.message ?? '')).toBe(1024);
    expect(n?.message).toBe(`${TRC_TEXT.replace('Wallet maintenance', '')}${'Z'.repeat(1024 - Buffer.byteLength(TRC_TEXT.replace('Wallet maintenance', '')) - 3)}…`);
  });

  it('keeps every body under 4,096 bytes: a body of exactly 4,096 would be an attachment, or refused where the server keeps none', async () => {
    env.double.attachments = false;
    const huge = ['A', 'B', 'C'].map((network) => closed(HUGE, { network, chain: network.toLowerCase() }));
    const head = '🔴 USDT withdrawals disabled on D (main)\nmain · USDT · D · d, since 2026-01-02 03:04:05 UTC\nMessage: ';
    // Three alerts of 1,024 bytes, blank lines between, and one of 1,018: 4,096 bytes together.
    const last = `${head}${'Y'.repeat(1018 - Buffer.byteLength(head))}`;
    await notifier().send(delivery([...huge, closed(last.slice(head.length), { network: 'D', chain: 'd' })]));
    const sent = env.double.notifications;
    expect(sent.map((n) => [n.title, Buffer.byteLength(n.message), n.attachment])).toEqual([
      ['[FIRING:4] WithdrawDisabled main (1/2)', 3076, undefined],
      ['[FIRING:4] WithdrawDisabled main (2/2)', 1018, undefined],
    ]);
    expect(sent[1]?.message).toBe(last);
    env.double.forced.push({ status: 400, body: { code: 40014, http: 400, error: 'invalid request: attachments not allowed' } });
    const refused = await rejection(notifier().send(delivery([closed()])));
    expect([refused.message, refused.reason, refused.retryable]).toEqual(['ntfy answered HTTP 400: invalid request: attachments not allowed (code 40014)', 'client_error', false]);
  });

  it('shows a message as the server does: trimmed of surrounding white space', async () => {
    await notifier().send(delivery([closed('Wallet maintenance \u00a0 ')]));
    expect(env.double.requests[0]?.json).toMatchObject({ message: `${TRC_TEXT} \u00a0 ` });
    expect(env.double.notifications).toEqual([TRC]);
  });

  it('keeps every JSON body under 8,192 bytes: quotes and backslashes count twice there, and the title is cut to 250 characters', async () => {
    const q = '"\\'.repeat(400);
    const alerts = Array.from({ length: 40 }, (_, i) => closed(q.slice(0, 505), { network: `N${String(i).padStart(2, '0')}${q.slice(0, 200)}`, chain: `c${i}` }));
    const d = buildDelivery('desk', { exchange: 'main', alertname: 'WithdrawDisabled', network: q }, alerts, EXTERNAL_URL, 1000);
    await notifier().send(d);
    const sent = env.double.notifications;
    expect(env.double.replies.map((r) => r.status)).toEqual(sent.map(() => 200));
    for (const r of env.double.requests) expect(Buffer.byteLength(r.raw)).toBeLessThan(8192);
    expect(sent.every((n) => n.attachment === undefined && Buffer.byteLength(n.message) < 4096)).toBe(true);
    expect(sent.map((n) => n.title)).toEqual(sent.map((_, i) => `[FIRING:40] WithdrawDisabled main ${q.slice(0, 250 - 34 - ' (40/40)'.length - 1)}… (${i + 1}/${sent.length})`));
    // Alerts of about 1,017 bytes: four would be under 4,096 bytes, but not under 8,192 once JSON-encoded.
    expect(sent.map((n) => n.message.split('\n\n').length)).toEqual([...Array<number>(13).fill(3), 1]);
    const networks = sent.flatMap((n) => [...n.message.matchAll(/disabled on (N\d\d)/g)].map((m) => m[1]));
    expect(networks).toEqual(alerts.map((a) => a.labels.network?.slice(0, 3)));
  });

  it("splits a storm's 8,000 alerts into messages under ntfy's 4,096 bytes, in order, numbered, each alert exactly once, none as an attachment", async () => {
    // Every 100th alert with a hostile, multi-byte message: the split counts bytes, not characters.
    const alerts = storm(8_000).map((a, i) => (i % 100 === 0 ? { ...a, annotations: { ...a.annotations, withdraw_desc: `${HOSTILE} ${'é'.repeat(300)}` } } : a));
    env.double.refillMs = 1;
    await sendThroughLimits(notifier(), delivery(alerts));
    const all = env.double.notifications;
    expect(all.length).toBeGreaterThan(1);
    expect(all.every((n) => n.attachment === undefined && Buffer.byteLength(n.message) < 4096 && !n.markdown)).toBe(true);
    expect(all.map((n) => n.title)).toEqual(all.map((_, i) => `[FIRING:8000] WithdrawDisabled main (${i + 1}/${all.length})`));
    const summaries = all.flatMap((n) => n.message.split('\n').filter((l) => l.startsWith('🔴 ')));
    expect(summaries).toEqual(alerts.map((a) => `🔴 ${a.annotations.summary}`));
    expect(all.map((n) => n.click)).toEqual(all.map((n) => `http://sw.example:9464/#${alerts.find((a) => n.message.startsWith(`🔴 ${a.annotations.summary}\n`))?.fingerprint}`));
  });

  it('says how many alerts the pipeline left out, with the status page, in the last message', async () => {
    const d = delivery([closed()]);
    await notifier().send({ ...d, notification: { ...d.notification, truncatedAlerts: 3 } });
    expect(env.double.notifications[0]?.message).toBe(`${TRC_TEXT}\n\n3 more alerts not shown (see http://sw.example:9464)`);
  });

  it('waits 5 s after ntfy\'s 429, which has no Retry-After (a burst of 60, then one request every 5 s), and a retry starts after the messages already accepted', async () => {
    const phone = notifier();
    const d = delivery(storm(2000));
    const err = await rejection(phone.send(d));
    expect([err.message, err.reason, err.retryable, err.retryAfterMs]).toEqual(['ntfy answered HTTP 429: limit reached: too many requests (code 42901)', 'rate_limited', true, 5000]);
    expect(env.double.notifications).toHaveLength(60);
    expect(env.double.replies.at(-1)).toEqual({ status: 429, body: { code: 42901, http: 429, error: 'limit reached: too many requests', link: 'https://ntfy.sh/docs/publish/#limitations' } });
    env.double.refillMs = 1;
    const limits = await sendThroughLimits(phone, d);
    expect(limits.every((e) => e.reason === 'rate_limited' && e.retryAfterMs === 5000)).toBe(true);
    const summaries = env.double.notifications.flatMap((m) => m.message.split('\n').filter((l) => l.startsWith('🔴 ')));
    expect(summaries).toEqual(d.notification.alerts.map((a) => `🔴 ${a.annotations.summary}`));
    expect(env.double.requests.length).toBe(env.double.notifications.length + 1 + limits.length);
  });

  it('waits an hour once the daily message quota is used up (42908)', async () => {
    env.double.dailyQuota = 2;
    const err = await rejection(notifier().send(delivery(storm(100))));
    expect([err.message, err.reason, err.retryable, err.retryAfterMs]).toEqual(['ntfy answered HTTP 429: limit reached: daily message quota reached (code 42908)', 'rate_limited', true, 3_600_000]);
    expect(env.double.notifications).toHaveLength(2);
  });

  it('classifies refusals with ntfy\'s own words and never quotes the token, password or topic', async () => {
    const wrong = await rejection(notifier({ token: 'tk_wrongwrongwrongwrongwrongwro' }).send(delivery([closed()])));
    expect([wrong.message, wrong.reason, wrong.retryable]).toEqual(['ntfy answered HTTP 401: unauthorized (code 40101)', 'client_error', false]);
    const none = await rejection(notifier({ token: undefined }).send(delivery([closed()])));
    expect([none.message, none.reason, none.retryable]).toEqual(['ntfy answered HTTP 403: forbidden (code 40301)', 'client_error', false]);
    env.double.forced.push({ status: 500, body: `internal error for ${NTFY_TOPIC} with ${NTFY_TOKEN}` });
    const down = await rejection(notifier().send(delivery([closed()])));
    expect([down.message, down.reason, down.retryable]).toEqual(['ntfy answered HTTP 500: internal error for <redacted> with <redacted>', 'server_error', true]);
    env.double.forced.push({ status: 503, headers: { 'retry-after': '3' }, body: 'upstream down' });
    const busy = await rejection(notifier().send(delivery([closed()])));
    expect([busy.reason, busy.retryable, busy.retryAfterMs]).toEqual(['server_error', true, 3000]);
  });

  it('classifies an unreachable server as connect', async () => {
    const url = env.double.url;
    await env.double.stop();
    const err = await rejection(notifier({ url }).send(delivery([closed()])));
    expect([err.reason, err.retryable]).toEqual(['connect', true]);
  });
});

describe('the ntfy block', () => {
  const FILE = 'c.yaml';
  const text = (block: string): string => `exchanges:\n  - name: main\nnotify:\n  receivers:\n    - name: phone\n      ntfy: ${block}\n`;

  it('validates it and fills the defaults: ntfy.sh, 10 s', () => {
    const result = parseConfig(text('{ topic: desk-alerts, token: "${NTFY_TOKEN}" }'), FILE, { NTFY_TOKEN }, '/etc/spotwatch');
    if (!result.ok) throw new Error(result.problems.join('\n'));
    expect(result.config.notify.receivers).toStrictEqual([{ name: 'phone', send_resolved: true, kind: 'ntfy', ntfy: { url: 'https://ntfy.sh', topic: 'desk-alerts', token: NTFY_TOKEN, timeout: 10_000 } }]);
    expect(redactConfig(result.config).notify.receivers[0]).toStrictEqual({ name: 'phone', send_resolved: true, kind: 'ntfy', ntfy: { url: 'https://ntfy.sh', topic: '<redacted>', token: '<redacted>', timeout: 10_000 } });
  });

  it('redacts the password', () => {
    const result = parseConfig(text(`{ url: "https://ntfy.example.org", topic: t, username: ${NTFY_USER}, password: ${NTFY_PASSWORD} }`), FILE, {}, '/');
    if (!result.ok) throw new Error(result.problems.join('\n'));
    expect(redactConfig(result.config).notify.receivers[0]).toStrictEqual({
      name: 'phone', send_resolved: true, kind: 'ntfy', ntfy: { url: 'https://ntfy.example.org', topic: '<redacted>', username: NTFY_USER, password: '<redacted>', timeout: 10_000 },
    });
  });

  it('refuses a user and password in the URL (they would be dropped, not sent) without quoting them, and a topic ntfy keeps for itself', () => {
    const creds = parseConfig(text('{ url: "https://phil:s3cret@ntfy.example.org", topic: t }'), FILE, {}, '/');
    expect(creds.ok ? [] : creds.problems).toEqual([
      'c.yaml:6:20: notify.receivers[0].ntfy.url: the URL must not carry a user and password (not shown): put the user and password in username/password (or token)',
    ]);
    for (const topic of ['docs', 'static', 'file', 'app', 'metrics', 'account', 'settings', 'signup', 'login', 'v1']) {
      const reserved = parseConfig(text(`{ topic: ${topic}, token: tk_x }`), FILE, {}, '/');
      expect(reserved.ok ? [] : reserved.problems).toEqual([
        "c.yaml:6:22: notify.receivers[0].ntfy.topic: a topic may not be one of ntfy's reserved names (docs, static, file, app, metrics, account, settings, signup, login, v1)",
      ]);
    }
    expect(parseConfig(text('{ topic: docs2, token: tk_x }'), FILE, {}, '/').ok).toBe(true);
  });

  it('refuses a bad topic without quoting it, a user without a password, and a token with a user', () => {
    const result = parseConfig(text('{ topic: "no/such topic", username: phil }'), FILE, {}, '/');
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems.join('\n')).not.toContain('no/such');
    expect(problems.map((p) => p.replace(/^c\.yaml:\d+:\d+: /, ''))).toEqual([
      'notify.receivers[0].ntfy.password: username and password go together',
      'notify.receivers[0].ntfy.topic: a topic is 1 to 64 letters, digits, "-" or "_" (not shown: it may be the only secret)',
    ]);
    const pair = parseConfig(text('{ topic: t, username: phil }'), FILE, {}, '/');
    expect(pair.ok ? [] : pair.problems.map((p) => p.replace(/^c\.yaml:\d+:\d+: /, ''))).toEqual(['notify.receivers[0].ntfy.password: username and password go together']);
    const both = parseConfig(text('{ topic: t, token: tk_x, username: phil, password: pw }'), FILE, {}, '/');
    expect(both.ok ? [] : both.problems.map((p) => p.replace(/^c\.yaml:\d+:\d+: /, ''))).toEqual(['notify.receivers[0].ntfy.token: either token or username and password, not both']);
  });
});

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe('spotwatch test-notify through ntfy', () => {
  let dir: string;
  let double: NtfyDouble;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'spotwatch-ntfy-cli-'));
    double = await new NtfyDouble().start();
    writeFileSync(join(dir, 'c.yaml'), `exchanges:\n  - name: main\nlog: { level: error }\nnotify:\n  receivers:\n    - name: phone\n      ntfy: { url: "${double.url}", topic: ${NTFY_TOPIC}, token: "\${NTFY_TOKEN}" }\n`);
  });
  afterEach(async () => {
    await double.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(token: string): Promise<{ code: number; out: string; err: string }> {
    const stdout = new Sink();
    const stderr = new Sink();
    const code = await main(['test-notify', '--receiver', 'phone', '--config', join(dir, 'c.yaml')], { stdout, stderr, env: { SPOTWATCH_LOG_LEVEL: 'silent', NTFY_TOKEN: token } });
    return { code, out: stdout.text, err: stderr.text };
  }

  it('publishes a marked test, and prints ntfy\'s refusal without the token', async () => {
    expect(await run(NTFY_TOKEN)).toEqual({ code: 0, out: 'test notification delivered to phone (ntfy)\n', err: '' });
    expect(double.notifications.map((n) => [n.title, n.priority, n.by])).toEqual([['[FIRING:1] SpotwatchTestNotification', 2, 'token']]);
    expect(await run('tk_wrongwrongwrongwrongwrongwro')).toEqual({ code: 1, out: '', err: 'test notification to phone (ntfy) failed [client_error]: ntfy answered HTTP 401: unauthorized (code 40101)\n' });
    double.rateLimit();
    expect((await run(NTFY_TOKEN)).err).toBe('test notification to phone (ntfy) failed [rate_limited, would be retried]: ntfy answered HTTP 429: limit reached: too many requests (code 42901)\n');
  });
});
