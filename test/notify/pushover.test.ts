import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Notifier } from '../../src/notify/notifier';
import { pushover } from '../../src/notify/pushover';
import { PUSHOVER_DEFAULTS, pushoverSchema, type PushoverConfig } from '../../src/notify/pushover/schema';
import { receiverRegistry } from '../../src/notify/registry';
import { PUSHOVER_TOKEN, PUSHOVER_USER, PushoverDouble } from '../support/doubles/pushover';
import { closed, delivery, descSet, HOSTILE, HUGE, perTest, rejection, reopened, storm } from './chat-fixtures';

// An 8,000-alert storm takes about 2 s here and more on a loaded machine: no test of this file is bound by its speed.
jest.setTimeout(60_000);

const env = perTest(() => new PushoverDouble());
let stateDir: string;
beforeEach(() => { stateDir = mkdtempSync(join(tmpdir(), 'spotwatch-pushover-')); });
afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

/** The receiver as the registry builds it from a `pushover:` block, with the daemon's state_dir. */
function notifier(over: Record<string, unknown> = {}, name = 'phone'): Notifier {
  const block: PushoverConfig = pushoverSchema.parse({ token: PUSHOVER_TOKEN, user: PUSHOVER_USER, api_url: env.double.apiUrl, timeout: '2s', ...over });
  return pushover.create(name, block, { ...env.deps, stateDir });
}

const TRC = closed();

/** The networks of the alerts a message lists, in order. */
function networks(message: string): string[] {
  return [...message.matchAll(/disabled on (NET\d{4})/g)].map((x) => x[1]!);
}

/** A message's alert blocks (a blank line between two). */
function blocksOf(message: string): string[] {
  return message.split('\n\n');
}
const TRC_BLOCK = '<b>🔴 USDT withdrawals disabled on Tron(TRC20) (main)</b>\nmain · USDT · Tron(TRC20) · tron, since 2026-01-02 03:04:05 UTC\nWallet maintenance';

describe('pushover receiver', () => {
  it('sends a critical alert as an emergency, with retry and expire, and remembers its receipt on disk', async () => {
    await notifier().send(delivery([TRC]));
    expect(env.double.requests[0]?.path).toBe('/1/messages.json');
    expect(env.double.requests[0]?.json).toEqual({
      token: PUSHOVER_TOKEN,
      user: PUSHOVER_USER,
      title: '🔴 [FIRING:1] WithdrawDisabled main',
      message: TRC_BLOCK,
      priority: 2,
      html: 1,
      url: 'http://sw.example:9464/#72e6ada129d8b016',
      url_title: 'spotwatch status page',
      retry: 60,
      expire: 3600,
    });
    expect(env.double.replies[0]?.body).toEqual({ status: 1, request: 'req-1', receipt: 'r00000000000000000000000000001' });
    const kept = JSON.parse(readFileSync(join(stateDir, 'pushover-phone.receipts.json'), 'utf8')) as unknown;
    expect(kept).toEqual([{ receipt: 'r00000000000000000000000000001', alerts: [TRC.fingerprint], expiresAt: expect.any(Number) }]);
  });

  it('cancels the emergency by its receipt when the alert resolves, even after a restart, then says it resolved quietly', async () => {
    await notifier().send(delivery([TRC]));
    expect(env.double.repeating()).toEqual(['r00000000000000000000000000001']);
    await notifier().send(delivery([reopened(TRC)])); // a new notifier: the daemon restarted meanwhile
    expect(env.double.requests.map((r) => [r.path, r.json])).toEqual([
      ['/1/messages.json', expect.objectContaining({ priority: 2 })],
      ['/1/receipts/r00000000000000000000000000001/cancel.json', { token: PUSHOVER_TOKEN }],
      ['/1/messages.json', {
        token: PUSHOVER_TOKEN,
        user: PUSHOVER_USER,
        title: '✅ [RESOLVED] WithdrawDisabled main',
        message: '<b>✅ Resolved: USDT withdrawals disabled on Tron(TRC20) (main)</b>\nmain · USDT · Tron(TRC20) · tron, resolved 2026-01-02 04:04:05 UTC\nWallet maintenance',
        priority: -1,
        html: 1,
        url: 'http://sw.example:9464/#72e6ada129d8b016',
        url_title: 'spotwatch status page',
      }],
    ]);
    expect(env.double.repeating()).toEqual([]);
    expect(JSON.parse(readFileSync(join(stateDir, 'pushover-phone.receipts.json'), 'utf8'))).toEqual([]);
  });

  it('keeps an emergency about two alerts until both resolved; a receipt Pushover forgot is forgotten', async () => {
    const other = closed('x', { network: 'BSC', chain: 'bsc' });
    await notifier().send(delivery([TRC, other]));
    await notifier().send(delivery([reopened(TRC), other]));
    // The first emergency still stands for the alert that fires: the update is high, not a second emergency.
    expect(env.double.messages.map((m) => m.priority)).toEqual([2, 1]);
    expect(env.double.repeating()).toEqual(['r00000000000000000000000000001']);
    env.double.emergencies.delete('r00000000000000000000000000001'); // expired at Pushover
    await notifier().send(delivery([reopened(other)]));
    expect(env.double.requests.filter((r) => r.path.includes('/cancel.json')).map((r) => r.path)).toEqual(['/1/receipts/r00000000000000000000000000001/cancel.json']);
    expect(env.double.replies.filter((r) => r.status === 404)).toHaveLength(1);
    expect(env.double.repeating()).toEqual([]);
  });

  it('retries a cancel Pushover could not take (5xx), keeping the receipt until it is cancelled', async () => {
    await notifier().send(delivery([TRC]));
    env.double.forced.push({ status: 503, body: { status: 0, errors: ['try again'], request: 'z' } });
    const d = delivery([reopened(TRC)]);
    expect(await rejection(notifier().send(d))).toMatchObject({ reason: 'server_error', retryable: true, message: 'Pushover answered HTTP 503: try again' });
    expect(env.double.repeating()).toEqual(['r00000000000000000000000000001']);
    expect(JSON.parse(readFileSync(join(stateDir, 'pushover-phone.receipts.json'), 'utf8'))).toEqual([expect.objectContaining({ receipt: 'r00000000000000000000000000001', alerts: [] })]);
    await notifier().send(d);
    expect(env.double.repeating()).toEqual([]);
    expect(env.double.requests.map((r) => r.path)).toEqual(['/1/messages.json', '/1/receipts/r00000000000000000000000000001/cancel.json', '/1/receipts/r00000000000000000000000000001/cancel.json', '/1/messages.json']);
  });

  it.each([
    ['error', 1], ['warning', 0], ['info', -1], ['whatever', 0],
  ])('gives a %s alert priority %d, without retry or expire', async (severity, priority) => {
    await notifier().send(delivery([closed('m', { severity })]));
    const sent = env.double.messages[0];
    expect([sent?.priority, sent?.retry, sent?.expire]).toEqual([priority, undefined, undefined]);
  });

  it('takes the priorities of the block, and a change event is quiet', async () => {
    await notifier({ priorities: { critical: 1 } }).send(delivery([TRC]));
    await notifier().send(delivery([descSet('Upgrade at 10:00')]));
    expect(env.double.messages.map((m) => m.priority)).toEqual([1, -1]);
  });

  it('escapes a hostile exchange message in HTML mode, and sends it as it is in plain text', async () => {
    await notifier().send(delivery([closed(HOSTILE)]));
    expect(env.double.replies[0]?.status).toBe(200);
    expect(env.double.messages[0]?.message).toBe('<b>🔴 USDT withdrawals disabled on Tron(TRC20) (main)</b>\nmain · USDT · Tron(TRC20) · tron, since 2026-01-02 03:04:05 UTC\n'
      + '&lt;script&gt;alert(1)&lt;/script&gt; @everyone @here &lt;@123&gt; &lt;@&amp;456&gt; &lt;!channel&gt; &lt;@U123&gt; &lt;http://evil.example|click&gt; [click](http://evil.example) **bold** &amp; more');
    await notifier({ html: false }).send(delivery([closed(HOSTILE)]));
    expect(env.double.messages[1]).toEqual(expect.objectContaining({ message: `🔴 USDT withdrawals disabled on Tron(TRC20) (main)\nmain · USDT · Tron(TRC20) · tron, since 2026-01-02 03:04:05 UTC\n${HOSTILE}` }));
    expect(env.double.messages[1]?.html).toBeUndefined();
  });

  it('cuts a 100 KB exchange message to Pushover\'s 1,024 characters, and never in the middle of an escape', async () => {
    await notifier().send(delivery([closed(HUGE)]));
    await notifier().send(delivery([closed('&'.repeat(5000))]));
    expect(env.double.replies.map((r) => r.status)).toEqual([200, 200]);
    expect(env.double.messages[0]?.message.length).toBeLessThanOrEqual(1024);
    expect(env.double.messages[0]?.message.endsWith('ZZ…')).toBe(true);
    expect(env.double.messages[1]?.message.endsWith('&amp;…')).toBe(true);
  });

  it('bounds the summary and where-line on their escaped length: a hostile 150-character label leaves every message within 1,024 characters, every alert in one', async () => {
    const label = '\'"&<'.repeat(38).slice(0, 150);
    await notifier().send(delivery([closed('Wallet maintenance', { network: label })]));
    expect(env.double.replies.map((r) => r.status)).toEqual([200]);
    const [head, where, message] = (env.double.messages[0]?.message ?? '').split('\n');
    expect(head).toBe(`<b>🔴 USDT withdrawals disabled on ${'&#39;&quot;&amp;&lt;'.repeat(8)}&#39;…</b>`);
    expect(where).toBe(`main · USDT · ${'&#39;&quot;&amp;&lt;'.repeat(9)}&#39;…`);
    expect(message).toBe('Wallet maintenance');
    const alerts = storm(40).map((a) => closed('Wallet maintenance', { ...a.labels, network: `${a.labels.network ?? ''}${label}` }));
    await notifier().send(delivery(alerts));
    const sent = env.double.messages.slice(1);
    expect(env.double.replies.map((r) => r.status)).toEqual([200, ...sent.map(() => 200)]);
    for (const m of sent) expect([...m.message].length).toBeLessThanOrEqual(1024);
    expect(sent.flatMap((m) => networks(m.message))).toEqual(alerts.map((a) => a.labels.network?.slice(0, 7)));
  });

  it('splits an 8,000-alert storm into as many full messages as it takes, every alert in exactly one, in order; only the first is an emergency', async () => {
    const alerts = storm(8000);
    await notifier().send(delivery(alerts));
    const sent = env.double.messages;
    expect(sent).toHaveLength(1143);
    expect(sent.map((m) => m.title)).toEqual(sent.map((_, i) => `🔴 [FIRING:8000] WithdrawDisabled main (${i + 1}/1143)`));
    expect(env.double.replies.map((r) => r.status)).toEqual(sent.map(() => 200));
    for (const m of sent) expect([...m.message].length).toBeLessThanOrEqual(1024);
    // Every alert once, in order, and nothing counted as left out.
    expect(sent.flatMap((m) => networks(m.message))).toEqual(alerts.map((a) => a.labels.network));
    expect(sent.some((m) => m.message.includes('not shown'))).toBe(false);
    // Dense: the first alert of each message would not have fitted in the one before.
    for (let i = 1; i < sent.length; i++) expect([...sent[i - 1]!.message].length + 2 + [...blocksOf(sent[i]!.message)[0]!].length).toBeGreaterThan(1024);
    // One emergency (and one receipt) for the group; the other parts are high, and nothing repeats them.
    expect(sent.map((m) => [m.priority, m.retry, m.expire])).toEqual(sent.map((_, i) => (i === 0 ? [2, 60, 3600] : [1, undefined, undefined])));
    expect(env.double.repeating()).toEqual(['r00000000000000000000000000001']);
    expect(JSON.parse(readFileSync(join(stateDir, 'pushover-phone.receipts.json'), 'utf8'))).toEqual([
      { receipt: 'r00000000000000000000000000001', alerts: alerts.map((a) => a.fingerprint), expiresAt: expect.any(Number) },
    ]);
    expect(sent.map((m) => m.url)).toEqual(sent.map(() => 'http://sw.example:9464'));
  });

  it('cancels a split storm\'s one emergency only once its alerts have all resolved, the last of them listed in the last part', async () => {
    const alerts = storm(30);
    await notifier().send(delivery(alerts));
    const first = [...env.double.messages];
    expect(first.map((m) => [m.title, m.priority])).toEqual([
      ['🔴 [FIRING:30] WithdrawDisabled main (1/5)', 2],
      ['🔴 [FIRING:30] WithdrawDisabled main (2/5)', 1],
      ['🔴 [FIRING:30] WithdrawDisabled main (3/5)', 1],
      ['🔴 [FIRING:30] WithdrawDisabled main (4/5)', 1],
      ['🔴 [FIRING:30] WithdrawDisabled main (5/5)', 1],
    ]);
    const last = alerts[29]!;
    expect(networks(first[4]!.message)).toContain(last.labels.network);
    // Everything but the alert of the last part resolves: the emergency still repeats.
    await notifier().send(delivery([...alerts.slice(0, 29).map(reopened), last]));
    expect(env.double.requests.filter((r) => r.path.includes('/cancel.json'))).toEqual([]);
    expect(env.double.emergencies.get('r00000000000000000000000000001')?.cancelled).toBe(false);
    const kept = JSON.parse(readFileSync(join(stateDir, 'pushover-phone.receipts.json'), 'utf8')) as { receipt: string; alerts: string[] }[];
    // The update's first message is high: the first receipt still stands for the one still firing.
    expect(kept.map((r) => [r.receipt, r.alerts])).toEqual([['r00000000000000000000000000001', [last.fingerprint]]]);
    expect(env.double.messages.slice(5).map((m) => m.priority)).toEqual([1, -1, -1, -1, -1]);
    // It resolves too: the receipt is cancelled.
    await notifier().send(delivery(alerts.map(reopened)));
    expect(env.double.requests.filter((r) => r.path.includes('/cancel.json')).map((r) => r.path)).toEqual(['/1/receipts/r00000000000000000000000000001/cancel.json']);
    expect(env.double.repeating()).toEqual([]);
    expect(JSON.parse(readFileSync(join(stateDir, 'pushover-phone.receipts.json'), 'utf8'))).toEqual([]);
  });

  it('with max_messages: 3, sends three full messages and the last says how many alerts had no room', async () => {
    const alerts = storm(8000);
    await notifier({ max_messages: 3 }).send(delivery(alerts));
    const sent = env.double.messages;
    expect(sent.map((m) => [m.title, m.priority])).toEqual([
      ['🔴 [FIRING:8000] WithdrawDisabled main (1/3)', 2],
      ['🔴 [FIRING:8000] WithdrawDisabled main (2/3)', 1],
      ['🔴 [FIRING:8000] WithdrawDisabled main (3/3)', 1],
    ]);
    for (const m of sent) expect([...m.message].length).toBeLessThanOrEqual(1024);
    const shown = sent.flatMap((m) => networks(m.message));
    expect(shown).toEqual(alerts.slice(0, shown.length).map((a) => a.labels.network));
    expect(shown).toHaveLength(21); // seven alerts a message, as in the uncapped storm
    expect(sent[2]?.message.endsWith(`\n\n… and ${8000 - 21} more alerts not shown (see the status page)`)).toBe(true);
    // The alerts left out still fire: the emergency's receipt stands for them too.
    expect(JSON.parse(readFileSync(join(stateDir, 'pushover-phone.receipts.json'), 'utf8'))).toEqual([
      { receipt: 'r00000000000000000000000000001', alerts: alerts.map((a) => a.fingerprint), expiresAt: expect.any(Number) },
    ]);
  });

  it('says how many alerts the notification itself left out, in the last message', async () => {
    const d = delivery(storm(8));
    d.notification.truncatedAlerts = 5;
    await notifier().send(d);
    const sent = env.double.messages;
    expect(sent.map((m) => m.title)).toEqual(['🔴 [FIRING:8] WithdrawDisabled main (1/2)', '🔴 [FIRING:8] WithdrawDisabled main (2/2)']);
    expect(sent.flatMap((m) => networks(m.message))).toEqual(storm(8).map((a) => a.labels.network));
    expect(sent[0]?.message.includes('not shown')).toBe(false);
    expect(sent[1]?.message.endsWith('\n\n… and 5 more alerts not shown (see the status page)')).toBe(true);
  });

  it('sends an update at priority 1 while a receipt stands for every emergency alert of the group: an acknowledged emergency does not ring again for a partial resolve', async () => {
    const warn = closed('w', { network: 'BSC', chain: 'bsc', severity: 'warning' });
    await notifier().send(delivery([TRC, warn]));
    await notifier().send(delivery([TRC, reopened(warn)]));
    expect(env.double.requests[1]?.json).toEqual({
      token: PUSHOVER_TOKEN,
      user: PUSHOVER_USER,
      title: '🔴 [FIRING:1] WithdrawDisabled main',
      message: `${TRC_BLOCK}\n\n<b>✅ Resolved: USDT withdrawals disabled on BSC (main)</b>\nmain · USDT · BSC · bsc, resolved 2026-01-02 04:04:05 UTC\nw`,
      priority: 1,
      html: 1,
      url: 'http://sw.example:9464',
      url_title: 'spotwatch status page',
    });
    expect(env.double.repeating()).toEqual(['r00000000000000000000000000001']);
    // A new critical alert no receipt stands for: a new emergency, about both.
    const bsc = closed('x', { network: 'BSC', chain: 'bsc' });
    await notifier().send(delivery([TRC, bsc]));
    expect(env.double.messages.map((m) => m.priority)).toEqual([2, 1, 2]);
    expect(JSON.parse(readFileSync(join(stateDir, 'pushover-phone.receipts.json'), 'utf8'))).toEqual([
      { receipt: 'r00000000000000000000000000001', alerts: [TRC.fingerprint], expiresAt: expect.any(Number) },
      { receipt: 'r00000000000000000000000000002', alerts: [TRC.fingerprint, bsc.fingerprint], expiresAt: expect.any(Number) },
    ]);
  });

  it('shows the firing emergencies first, and only they are cancelled by the receipt', async () => {
    const warn = closed('w', { network: 'BSC', severity: 'warning' });
    await notifier().send(delivery([warn, TRC]));
    const text = env.double.messages[0]?.message ?? '';
    expect(text.indexOf('Tron')).toBeLessThan(text.indexOf('BSC'));
    await notifier().send(delivery([reopened(TRC), warn]));
    expect(env.double.repeating()).toEqual([]);
  });

  it('gives up on a 400 with Pushover\'s errors, and keeps the token and user key out of the message', async () => {
    const err = await rejection(notifier({ user: 'x'.repeat(30) }).send(delivery([TRC])));
    expect(err).toMatchObject({ reason: 'client_error', retryable: false, message: 'Pushover answered HTTP 400: user identifier is not a valid user, group, or subscribed user key' });
    env.double.forced.push({ status: 400, body: { token: 'invalid', errors: [`application token ${PUSHOVER_TOKEN} for ${PUSHOVER_USER} is invalid`], status: 0, request: 'x' } });
    expect((await rejection(notifier().send(delivery([TRC])))).message).toBe('Pushover answered HTTP 400: application token <redacted> for <redacted> is invalid');
  });

  it('waits for the monthly limit\'s reset on a 429, retries a 5xx, and on the retry sends only the messages not yet accepted', async () => {
    const reset = Math.ceil(Date.now() / 1000) + 3600;
    env.double.reset = reset;
    env.double.exhaust();
    const limited = await rejection(notifier().send(delivery([TRC])));
    expect(limited).toMatchObject({ reason: 'rate_limited', retryable: true, message: 'Pushover answered HTTP 429: application has exceeded its monthly message limit' });
    expect(limited.retryAfterMs).toBeGreaterThan(3_500_000);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(3_601_000);
    env.double.remaining = 100;
    const d = delivery(storm(40));
    const phone = notifier();
    env.double.forced.push({ status: 200, body: { status: 1, request: 'forced' } });
    env.double.forced.push({ status: 503, headers: { 'retry-after': '2' }, body: { status: 0, errors: ['try again'], request: 'y' } });
    // Retry-After: 2, but Pushover asks for 5 seconds at least after a 5xx.
    expect(await rejection(phone.send(d))).toMatchObject({ reason: 'server_error', retryable: true, retryAfterMs: 5000, message: 'Pushover answered HTTP 503: try again' });
    await phone.send(d);
    const titles = env.double.requests.slice(1).map((r) => (r.json as { title: string }).title);
    expect(titles[0]).toMatch(/\(1\/\d+\)$/);
    expect(titles[1]).toMatch(/\(2\/\d+\)$/);
    expect(titles[2]).toMatch(/\(2\/\d+\)$/); // the retry starts at the message that failed
    expect(env.double.messages.length).toBe(titles.length - 2);
  });

  it('stops between messages when Pushover says the month\'s limit is used up', async () => {
    env.double.remaining = 1;
    const asked = Date.now();
    env.double.reset = Math.ceil(asked / 1000) + 60;
    const phone = notifier();
    const d = delivery(storm(40));
    const err = await rejection(phone.send(d));
    expect([err.reason, err.retryable]).toEqual(['rate_limited', true]);
    // Until X-Limit-App-Reset: 59-61 s from when it was asked.
    expect(err.retryAfterMs).toBeGreaterThanOrEqual(env.double.reset * 1000 - Date.now() - 1_000);
    expect(err.retryAfterMs).toBeLessThanOrEqual(env.double.reset * 1000 - asked);
    expect(env.double.requests).toHaveLength(1);
    // The retry, once the month has come round, sends only the parts not yet accepted.
    env.double.remaining = 10_000;
    await phone.send(d);
    expect((env.double.requests[1]?.json as { title: string }).title).toMatch(/\(2\/\d+\)$/);
  });

  it('treats a 200 that is not Pushover\'s JSON as undelivered, and a dead port as a connection failure retried no sooner than 5 s', async () => {
    env.double.forced.push({ status: 200, body: `<html>captive portal\nfor ${PUSHOVER_USER}</html>` });
    const portal = await rejection(notifier().send(delivery([TRC])));
    expect([portal.message, portal.reason, portal.retryable]).toEqual(['Pushover answered HTTP 200 without status 1: <html>captive portal for <redacted></html>', 'other', true]);
    const err = await rejection(notifier({ api_url: 'http://127.0.0.1:9' }).send(delivery([TRC])));
    expect(err).toMatchObject({ reason: 'connect', retryable: true, retryAfterMs: 5000 });
  });

  it('gives up on a 200 whose status is not 1 (invalid input: repeating it will not work), quoting its errors without the secrets', async () => {
    env.double.forced.push({ status: 200, body: { status: 0, errors: [`user key ${PUSHOVER_USER} is invalid`, 'message cannot be blank'], request: 'x' } });
    const err = await rejection(notifier().send(delivery([TRC])));
    expect([err.message, err.reason, err.retryable, err.retryAfterMs]).toEqual(['Pushover answered HTTP 200 with status 0: user key <redacted> is invalid; message cannot be blank', 'client_error', false, undefined]);
  });

  it('retries a 5xx without Retry-After no sooner than 5 s after, as Pushover asks', async () => {
    env.double.forced.push({ status: 503, body: { status: 0, errors: ['try again'], request: 'y' } });
    const err = await rejection(notifier().send(delivery([TRC])));
    expect([err.message, err.reason, err.retryable, err.retryAfterMs]).toEqual(['Pushover answered HTTP 503: try again', 'server_error', true, 5000]);
  });

  it('redacts the token and user key wherever config is shown', () => {
    const block = pushoverSchema.parse({ token: PUSHOVER_TOKEN, user: PUSHOVER_USER });
    expect(receiverRegistry.redact({ name: 'phone', send_resolved: true, kind: 'pushover', pushover: block })).toEqual({
      name: 'phone', send_resolved: true, kind: 'pushover',
      pushover: { ...PUSHOVER_DEFAULTS, token: '<redacted>', user: '<redacted>' },
    });
    expect(receiverRegistry.logRedactPaths()).toEqual(expect.arrayContaining(['pushover.token', 'pushover.user', 'token', 'user']));
    const bad = pushoverSchema.safeParse({ token: 'short-secret', user: PUSHOVER_USER, retry: 10, expire: 20_000 });
    expect(bad.success ? [] : bad.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'token: a Pushover application token is 30 letters and digits (not shown: it is a secret)',
      'retry: Number must be greater than or equal to 30',
      'expire: Number must be less than or equal to 10800',
    ]);
  });
});
