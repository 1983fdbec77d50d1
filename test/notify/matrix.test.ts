import { parseConfig, redactConfig } from '../../src/config';
import { matrix } from '../../src/notify/matrix';
import type { MatrixConfig } from '../../src/notify/matrix/schema';
import type { Notifier } from '../../src/notify/notifier';
import { MATRIX_ROOM, MATRIX_ROOM_V12, MATRIX_TOKEN, MatrixDouble } from '../support/doubles/matrix';
import { closed, delivery, HOSTILE, HUGE, perTest, rejection, reopened, storm } from './chat-fixtures';

// An 8,000-alert storm takes about 2 s here and more on a loaded machine: no test of this file is bound by its speed.
jest.setTimeout(60_000);

const env = perTest(() => new MatrixDouble());

/** The receiver as the registry builds it from a `matrix:` block. */
function notifier(over: Partial<MatrixConfig> = {}): Notifier {
  return matrix.create('room', { homeserver: env.double.homeserver, room_id: MATRIX_ROOM, access_token: MATRIX_TOKEN, timeout: 2000, msgtype: 'text', ...over }, env.deps);
}

const ROOM_PATH = '/_matrix/client/v3/rooms/!abcDEF123%3Aexample.org/send/m.room.message';
const TRC_TEXT = '\n🔴 USDT withdrawals disabled on Tron(TRC20) (main)\nmain · USDT · Tron(TRC20) · tron · since 2026-01-02 03:04:05 UTC';
const TRC_HTML = '<p><a href="http://sw.example:9464/#72e6ada129d8b016">🔴 USDT withdrawals disabled on Tron(TRC20) (main)</a><br>main · USDT · Tron(TRC20) · tron · since 2026-01-02 03:04:05 UTC</p>';

describe('matrix receiver', () => {
  it('sends a group as one m.text by PUT, the delivery\'s key as txnId, the token as a Bearer, and no mention: pushed to phones, pinging no one', async () => {
    const d = delivery([closed()]);
    await notifier().send(d);
    const req = env.double.requests[0];
    expect(req?.method).toBe('PUT');
    expect(req?.path).toBe(`${ROOM_PATH}/${d.idempotencyKey}`);
    expect(req?.headers.authorization).toBe(`Bearer ${MATRIX_TOKEN}`);
    expect(req?.headers['content-type']).toBe('application/json');
    expect(env.double.events).toHaveLength(1);
    expect(env.double.events[0]?.content).toEqual({
      msgtype: 'm.text',
      body: `🔴 [FIRING:1] WithdrawDisabled main${TRC_TEXT}\n> Wallet maintenance\nhttp://sw.example:9464`,
      format: 'org.matrix.custom.html',
      formatted_body: `<p><strong>🔴 [FIRING:1] WithdrawDisabled main</strong></p>${TRC_HTML}<blockquote>Wallet maintenance</blockquote><p><a href="http://sw.example:9464">status page</a></p>`,
      'm.mentions': {},
    });
    expect(env.double.events[0]?.pushed).toBe(true);
    expect(env.double.events[0]?.pings).toEqual([]);
  });

  it('sends m.notice with msgtype: notice (the default push rules push it to no one), the rest the same', async () => {
    const d = delivery([closed()]);
    await notifier({ msgtype: 'notice' }).send(d);
    expect(env.double.requests[0]?.path).toBe(`${ROOM_PATH}/${d.idempotencyKey}`);
    expect(env.double.events[0]?.content).toEqual({
      msgtype: 'm.notice',
      body: `🔴 [FIRING:1] WithdrawDisabled main${TRC_TEXT}\n> Wallet maintenance\nhttp://sw.example:9464`,
      format: 'org.matrix.custom.html',
      formatted_body: `<p><strong>🔴 [FIRING:1] WithdrawDisabled main</strong></p>${TRC_HTML}<blockquote>Wallet maintenance</blockquote><p><a href="http://sw.example:9464">status page</a></p>`,
      'm.mentions': {},
    });
    expect(env.double.events[0]?.pushed).toBe(false);
  });

  it('sends to a room of version 12, whose id has no server part, its id encoded in the path', async () => {
    const d = delivery([closed()]);
    await notifier({ room_id: MATRIX_ROOM_V12 }).send(d);
    expect(env.double.requests[0]?.path).toBe(`/_matrix/client/v3/rooms/!31hneApxJ_1o-63DmFrpeqnkFfWppnzWso1JvH3ogLM/send/m.room.message/${d.idempotencyKey}`);
    expect(env.double.events.map((e) => [e.roomId, e.txnId])).toEqual([[MATRIX_ROOM_V12, d.idempotencyKey]]);
  });

  it('says a resolution with its end time', async () => {
    await notifier().send(delivery([reopened(closed())]));
    expect(env.double.events[0]?.content.body).toBe('✅ [RESOLVED] WithdrawDisabled main\n✅ Resolved: USDT withdrawals disabled on Tron(TRC20) (main)\nmain · USDT · Tron(TRC20) · tron · resolved 2026-01-02 04:04:05 UTC\n> Wallet maintenance\nhttp://sw.example:9464');
  });

  it('makes a hostile withdrawDesc inert: HTML escaped in formatted_body, and @room or a user id pings no one', async () => {
    const hostile = `${HOSTILE} @room @alice:example.org <a href="https://evil.example">x</a>`;
    await notifier().send(delivery([closed(hostile, { coin: '@room' })]));
    const event = env.double.events[0];
    expect(event?.pings).toEqual([]);
    expect(event?.content['m.mentions']).toEqual({});
    expect(event?.content.formatted_body).toBe(
      '<p><strong>🔴 [FIRING:1] WithdrawDisabled main</strong></p>'
      + '<p><a href="http://sw.example:9464/#dfe74e756fbdacef">🔴 @room withdrawals disabled on Tron(TRC20) (main)</a><br>main · @room · Tron(TRC20) · tron · since 2026-01-02 03:04:05 UTC</p>'
      + '<blockquote>&lt;script&gt;alert(1)&lt;/script&gt; @everyone @here &lt;@123&gt; &lt;@&amp;456&gt; &lt;!channel&gt; &lt;@U123&gt; &lt;http://evil.example|click&gt; [click](http://evil.example) **bold** &amp; more @room @alice:example.org &lt;a href=&quot;https://evil.example&quot;&gt;x&lt;/a&gt;</blockquote>'
      + '<p><a href="http://sw.example:9464">status page</a></p>',
    );
    // The plain body is not markup: the text as the exchange wrote it; `m.mentions: {}` keeps its @room and user id quiet.
    expect(event?.content.body).toBe(`🔴 [FIRING:1] WithdrawDisabled main\n🔴 @room withdrawals disabled on Tron(TRC20) (main)\nmain · @room · Tron(TRC20) · tron · since 2026-01-02 03:04:05 UTC\n> ${hostile}\nhttp://sw.example:9464`);
  });

  it('never posts twice when an answer is lost: the retry sends the same txnId and the homeserver keeps one event', async () => {
    const d = delivery([closed()]);
    env.double.loseAnswers = 1;
    expect(await rejection(notifier().send(d))).toMatchObject({ reason: 'server_error', retryable: true, message: 'Matrix answered HTTP 504: Gateway Timeout' });
    await notifier().send(d);
    expect(env.double.requests.map((r) => r.path)).toEqual([`${ROOM_PATH}/${d.idempotencyKey}`, `${ROOM_PATH}/${d.idempotencyKey}`]);
    expect(env.double.replies.map((r) => r.status)).toEqual([504, 200]);
    expect(env.double.events).toHaveLength(1);
  });

  it('splits an 8,000-alert storm into events within 65,536 bytes, every alert in one, and a retry re-sends the same txnIds', async () => {
    const alerts = storm(8000, 'x'.repeat(300));
    const d = delivery(alerts);
    await notifier().send(d);
    const events = env.double.events;
    expect(events.length).toBeGreaterThan(1);
    expect(events.every((e) => e.bytes <= 65_536)).toBe(true);
    expect(events.map((e) => e.txnId)).toEqual(events.map((_, i) => `${d.idempotencyKey}-${i + 1}`));
    expect(events.map((e) => String(e.content.body).split('\n')[0])).toEqual(events.map((_, i) => `🔴 [FIRING:8000] WithdrawDisabled main (${i + 1}/${events.length})`));
    const networks = events.flatMap((e) => [...String(e.content.body).matchAll(/disabled on (NET\d{4}) \(main\)/g)].map((m) => m[1]));
    expect(networks).toEqual(alerts.map((a) => a.labels.network));
    expect(events.flatMap((e) => [...String(e.content.formatted_body).matchAll(/disabled on (NET\d{4}) \(main\)/g)].map((m) => m[1]))).toEqual(networks);
    // A fresh notifier (a restart) sending the whole delivery again: the same txnIds, no new event.
    const before = events.length;
    await notifier().send(d);
    expect(env.double.events).toHaveLength(before);
  });

  it('resumes a split group after the part that failed, with that part\'s txnId', async () => {
    const d = delivery(storm(400, 'y'.repeat(300)));
    const n = notifier();
    env.double.forced.push({ status: 200, body: { event_id: '$1' } }, { status: 502, body: 'Bad Gateway' });
    await rejection(n.send(d));
    await n.send(d);
    const parts = env.double.events.length + 1; // the first was answered by `forced`, not stored
    expect(parts).toBeGreaterThanOrEqual(3);
    const txn = (i: number): string => `${d.idempotencyKey}-${i}`;
    expect(env.double.requests.map((r) => r.path.split('/').at(-1))).toEqual([txn(1), txn(2), ...Array.from({ length: parts - 1 }, (_, i) => txn(i + 2))]);
  });

  it('cuts a 100 KB exchange message so that its alert fits an event', async () => {
    await notifier().send(delivery([closed(HUGE)]));
    expect(String(env.double.events[0]?.content.body)).toContain(`\n> ${'Z'.repeat(1999)}…\n`);
  });

  it('cuts a 70,000-character summary and a huge label so that every event fits and no alert of the group is lost', async () => {
    const longSummary = closed('Wallet maintenance', { network: 'LONGSUM' });
    longSummary.annotations.summary = 'S'.repeat(70_000);
    const hugeLabel = closed('Wallet maintenance', { network: `"${'N'.repeat(70_000)}"` });
    const alerts = [closed('a', { network: 'NET0001' }), longSummary, closed('b', { network: 'NET0002' }), hugeLabel, closed('c', { network: 'NET0003' })];
    const d = delivery(alerts);
    await notifier().send(d);
    const events = env.double.events;
    expect(env.double.replies.map((r) => r.status)).toEqual(events.map(() => 200));
    expect(events.every((e) => e.bytes <= 65_536)).toBe(true);
    // Every alert is in an event, in order: its link to the status page names it.
    const links = events.flatMap((e) => [...String(e.content.formatted_body).matchAll(/<a href="http:\/\/sw\.example:9464\/#([0-9a-f]+)">/g)].map((m) => m[1]));
    expect(links).toEqual(d.notification.alerts.map((a) => /#([0-9a-f]+)$/.exec(a.generatorURL)?.[1]));
    const body = events.map((e) => String(e.content.body)).join('\n');
    expect(body).toContain(`\n🔴 ${'S'.repeat(999)}…\nmain · USDT · LONGSUM · tron · since 2026-01-02 03:04:05 UTC\n`);
    expect(body).toContain(`\n🔴 ${fitted(`USDT withdrawals disabled on "${'N'.repeat(70_000)}" (main)`, 1000)}\n${fitted(`main · USDT · "${'N'.repeat(70_000)}" · tron`, 500)} · since 2026-01-02 03:04:05 UTC\n`);
    const html = events.map((e) => String(e.content.formatted_body)).join('');
    expect(html).toContain(`<br>${fitted(`main · USDT · "${'N'.repeat(70_000)}" · tron`, 500).replaceAll('"', '&quot;')} · since 2026-01-02 03:04:05 UTC</p>`);
  });

  it('waits as M_LIMIT_EXCEEDED asks: retry_after_ms or Retry-After, whichever is longer', async () => {
    env.double.rateLimit(1500, 1);
    expect(await rejection(notifier().send(delivery([closed()])))).toMatchObject({ reason: 'rate_limited', retryable: true, retryAfterMs: 1500, message: 'Matrix answered HTTP 429: M_LIMIT_EXCEEDED: Too Many Requests' });
    env.double.rateLimit(200, 3);
    expect((await rejection(notifier().send(delivery([closed()])))).retryAfterMs).toBe(3000);
  });

  it('gives up on a wrong token or a room it is not in, with errcode and error, never the token', async () => {
    expect(await rejection(notifier({ access_token: 'syt_wrong' }).send(delivery([closed()])))).toMatchObject({ reason: 'client_error', retryable: false, retryAfterMs: undefined, message: 'Matrix answered HTTP 401: M_UNKNOWN_TOKEN: Invalid access token passed.' });
    expect((await rejection(notifier({ room_id: '!other:example.org' }).send(delivery([closed()])))).message).toBe('Matrix answered HTTP 403: M_FORBIDDEN: User @bot:example.org not in room !other:example.org');
    env.double.forced.push({ status: 400, body: { errcode: 'M_UNKNOWN', error: `bad token ${MATRIX_TOKEN}` } });
    expect((await rejection(notifier().send(delivery([closed()])))).message).toBe('Matrix answered HTTP 400: M_UNKNOWN: bad token <redacted>');
  });

  it('never carries the token to another host a homeserver redirects to', async () => {
    const other = await new MatrixDouble().start();
    try {
      const d = delivery([closed()]);
      env.double.forced.push({ status: 307, headers: { location: `${other.homeserver}${ROOM_PATH}/${d.idempotencyKey}` } });
      expect((await rejection(notifier().send(d))).message).toBe('Matrix answered HTTP 401: M_MISSING_TOKEN: Missing access token');
      expect(other.requests.map((r) => [r.method, r.headers.authorization])).toEqual([['PUT', undefined]]);
    } finally {
      await other.stop();
    }
  });

  it('takes a homeserver written with a trailing slash', async () => {
    const n = notifier({ homeserver: `${env.double.homeserver}/` });
    await n.send(delivery([closed()]));
    expect(env.double.requests[0]?.path.startsWith(ROOM_PATH)).toBe(true);
  });
});

/** `text` cut to `max` characters as the receiver cuts it, `…` last. */
function fitted(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

describe('matrix config', () => {
  const text = (block: string): string => `exchanges:\n  - name: main\nnotify:\n  receivers:\n    - name: room\n      matrix: ${block}\n`;

  it('reads the block as DESIGN.md writes it, and redacts the token', () => {
    const parsed = parseConfig(text('{ homeserver: https://matrix.example.org, room_id: "!abc:example.org", access_token: "${MX_TOKEN}" }'), 'c.yaml', { MX_TOKEN: 'syt_secret_token' }, '/');
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    expect(parsed.config.notify.receivers[0]).toEqual({ name: 'room', send_resolved: true, kind: 'matrix', matrix: { homeserver: 'https://matrix.example.org', room_id: '!abc:example.org', access_token: 'syt_secret_token', timeout: 10_000, msgtype: 'text' } });
    expect(redactConfig(parsed.config).notify.receivers[0]).toEqual({ name: 'room', send_resolved: true, kind: 'matrix', matrix: { homeserver: 'https://matrix.example.org', room_id: '!abc:example.org', access_token: '<redacted>', timeout: 10_000, msgtype: 'text' } });
  });

  it('reads a version 12 room id (no server part) and msgtype: notice, and keeps both in dumps', () => {
    const parsed = parseConfig(text('{ homeserver: https://matrix.example.org, room_id: "!31hneApxJ_1o-63DmFrpeqnkFfWppnzWso1JvH3ogLM", access_token: "syt_x", msgtype: notice }'), 'c.yaml', {}, '/');
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    expect(redactConfig(parsed.config).notify.receivers[0]).toEqual({ name: 'room', send_resolved: true, kind: 'matrix', matrix: { homeserver: 'https://matrix.example.org', room_id: '!31hneApxJ_1o-63DmFrpeqnkFfWppnzWso1JvH3ogLM', access_token: '<redacted>', timeout: 10_000, msgtype: 'notice' } });
  });

  it.each([
    ['!abc', 'use the room\'s id'],
    ['!31hneApxJ_1o-63DmFrpeqnkFfWppnzWso1JvH3ogL', 'use the room\'s id'],
    ['!31hneApxJ_1o-63DmFrpeqnkFfWppnzWso1JvH3ogLM+', 'use the room\'s id'],
    ['abc:example.org', 'use the room\'s id'],
    ['! abc:example.org', 'use the room\'s id'],
  ])('refuses %j as a room id', (roomId, said) => {
    const parsed = parseConfig(text(`{ homeserver: https://matrix.example.org, room_id: ${JSON.stringify(roomId)}, access_token: "syt_x" }`), 'c.yaml', {}, '/');
    expect(parsed.ok ? '' : parsed.problems.join('\n')).toContain(said);
  });

  it('refuses a msgtype other than text or notice', () => {
    const parsed = parseConfig(text('{ homeserver: https://matrix.example.org, room_id: "!abc:example.org", access_token: "syt_x", msgtype: m.notice }'), 'c.yaml', {}, '/');
    expect(parsed.ok ? '' : parsed.problems.join('\n')).toContain('msgtype');
  });

  it('refuses a room alias, never quoting the token', () => {
    const parsed = parseConfig(text('{ homeserver: https://matrix.example.org, room_id: "#desk:example.org", access_token: "a b" }'), 'c.yaml', {}, '/');
    expect(parsed.ok).toBe(false);
    const problems = parsed.ok ? [] : parsed.problems;
    expect(problems.join('\n')).toContain('a room alias is not a room id: use the room\'s id, such as "!abc:example.org" or, in a room of version 12 or later, "!31hneApxJ_1o-63DmFrpeqnkFfWppnzWso1JvH3ogLM"');
    expect(problems.join('\n')).not.toContain('a b');
  });
});
