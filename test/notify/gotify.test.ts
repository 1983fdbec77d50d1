import { gotify } from '../../src/notify/gotify';
import type { GotifyConfig } from '../../src/notify/gotify/schema';
import type { Notifier } from '../../src/notify/notifier';
import { GOTIFY_APP_TOKEN, GOTIFY_CLIENT_TOKEN, GotifyDouble, unescapedPunctuation, unescapeMarkdown } from '../support/doubles/gotify';
import { closed, delivery, HOSTILE, HUGE, perTest, rejection, reopened, storm } from './chat-fixtures';

// An 8,000-alert storm takes about 2 s here and more on a loaded machine: no test of this file is bound by its speed.
jest.setTimeout(60_000);

const env = perTest(() => new GotifyDouble());

/** The receiver as the registry builds it from a `gotify:` block. */
function notifier(over: Partial<GotifyConfig> = {}): Notifier {
  return gotify.create('phone', { url: env.double.url, token: GOTIFY_APP_TOKEN, timeout: 2000, markdown: true, ...over }, env.deps);
}

/** Gotify's own limit is undocumented: the receiver's (src/notify/gotify/message.ts says why). */
const MESSAGE_BYTES = 32_000;

const TRC_BLOCK = '🔴 **USDT withdrawals disabled on Tron\\(TRC20\\) \\(main\\)**  \nmain · USDT · Tron\\(TRC20\\) · tron · since 2026\\-01\\-02 03\\:04\\:05 UTC  \n> Wallet maintenance';

describe('gotify receiver', () => {
  it('posts a group to /message with the token in X-Gotify-Key: title, markdown message, priority, a click to the status page', async () => {
    await notifier().send(delivery([closed()]));
    const req = env.double.requests[0];
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe('/message');
    expect(req?.headers['x-gotify-key']).toBe(GOTIFY_APP_TOKEN);
    expect(req?.headers['content-type']).toBe('application/json');
    expect(env.double.replies[0]?.status).toBe(200);
    expect(req?.json).toEqual({
      title: '🔴 [FIRING:1] WithdrawDisabled main',
      message: TRC_BLOCK,
      priority: 8,
      extras: { 'client::display': { contentType: 'text/markdown' }, 'client::notification': { click: { url: 'http://sw.example:9464' } } },
    });
    expect(env.double.messages[0]?.via).toBe('header');
  });

  it('posts under the path the server is published at', async () => {
    env.double.prefix = '/gotify';
    await notifier({ url: `${env.double.url}/gotify/` }).send(delivery([closed()]));
    expect(env.double.requests[0]?.path).toBe('/gotify/message');
    expect(env.double.messages).toHaveLength(1);
  });

  it('takes the priority from the most severe firing alert; a resolved group is quiet', async () => {
    await notifier().send(delivery([closed('m', { severity: 'info' }), closed('m', { severity: 'warning', network: 'BSC' })]));
    await notifier().send(delivery([closed('m', { severity: 'info' })]));
    await notifier().send(delivery([reopened(closed())]));
    expect(env.double.messages.map((m) => m.priority)).toEqual([5, 3, 2]);
    expect(env.double.messages[2]).toEqual({
      title: '✅ [RESOLVED] WithdrawDisabled main',
      message: '✅ **Resolved\\: USDT withdrawals disabled on Tron\\(TRC20\\) \\(main\\)**  \nmain · USDT · Tron\\(TRC20\\) · tron · resolved 2026\\-01\\-02 04\\:04\\:05 UTC  \n> Wallet maintenance',
      priority: 2,
      extras: { 'client::display': { contentType: 'text/markdown' }, 'client::notification': { click: { url: 'http://sw.example:9464' } } },
      via: 'header',
    });
  });

  it('makes a hostile withdrawDesc inert in markdown: every punctuation mark escaped, on one line, reading as written', async () => {
    await notifier().send(delivery([closed(`${HOSTILE}\n# heading\n![img](http://evil.example/x.png)`)]));
    const message = env.double.messages[0]?.message ?? '';
    const quote = message.split('\n').at(-1) ?? '';
    expect(quote).toBe(
      '> \\<script\\>alert\\(1\\)\\<\\/script\\> \\@everyone \\@here \\<\\@123\\> \\<\\@\\&456\\> \\<\\!channel\\> \\<\\@U123\\> \\<http\\:\\/\\/evil\\.example\\|click\\> '
      + '\\[click\\]\\(http\\:\\/\\/evil\\.example\\) \\*\\*bold\\*\\* \\& more \\# heading \\!\\[img\\]\\(http\\:\\/\\/evil\\.example\\/x\\.png\\)',
    );
    expect(unescapedPunctuation(quote.slice(2))).toEqual([]);
    expect(unescapeMarkdown(quote.slice(2))).toBe(`${HOSTILE} # heading ![img](http://evil.example/x.png)`);
  });

  it('sends plain text, unescaped, with markdown: false', async () => {
    await notifier({ markdown: false }).send(delivery([closed(HOSTILE)]));
    expect(env.double.messages[0]).toEqual({
      title: '🔴 [FIRING:1] WithdrawDisabled main',
      message: `🔴 USDT withdrawals disabled on Tron(TRC20) (main)\nmain · USDT · Tron(TRC20) · tron · since 2026-01-02 03:04:05 UTC\nMessage: ${HOSTILE}`,
      priority: 8,
      extras: { 'client::display': { contentType: 'text/plain' }, 'client::notification': { click: { url: 'http://sw.example:9464' } } },
      via: 'header',
    });
  });

  it('cuts a 100 KB exchange message to 1,000 characters', async () => {
    await notifier().send(delivery([closed(HUGE)]));
    expect(env.double.messages[0]?.message?.split('\n').at(-1)).toBe(`> ${'Z'.repeat(999)}…`);
  });

  it('splits an 8,000-alert storm into messages within the bound, every alert in exactly one, in order', async () => {
    const alerts = storm(8000, HUGE);
    await notifier().send(delivery(alerts));
    const messages = env.double.messages;
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.every((m) => Buffer.byteLength(m.message ?? '', 'utf8') <= MESSAGE_BYTES)).toBe(true);
    expect(messages.map((m) => m.title)).toEqual(messages.map((_, i) => `🔴 [FIRING:8000] WithdrawDisabled main (part ${i + 1}/${messages.length})`));
    const networks = messages.flatMap((m) => [...(m.message ?? '').matchAll(/· NET(\d{4}) ·/g)].map((x) => Number(x[1])));
    expect(networks).toEqual(alerts.map((_, i) => i));
  });

  it('resumes a split group after the parts Gotify accepted, and waits as a proxy\'s 429 asks', async () => {
    const d = delivery(storm(400, HUGE));
    const n = notifier();
    env.double.forced.push({ status: 200, body: { id: 1 } }, { status: 429, headers: { 'retry-after': '7' }, body: 'Too Many Requests' });
    const err = await rejection(n.send(d));
    expect(err).toMatchObject({ reason: 'rate_limited', retryable: true, retryAfterMs: 7000, message: 'Gotify answered HTTP 429: Too Many Requests' });
    await n.send(d);
    const parts = env.double.messages.length + 1;
    expect(parts).toBeGreaterThan(2);
    // Part 1 was accepted before the 429: the retry sends part 2 (refused) again, and the rest, once each.
    expect(env.double.requests).toHaveLength(2 + parts - 1);
    expect(env.double.messages.map((m) => m.title)).toEqual(Array.from({ length: parts - 1 }, (_, i) => `🔴 [FIRING:400] WithdrawDisabled main (part ${i + 2}/${parts})`));
  });

  it('gives up on a wrong token or a client\'s token, with Gotify\'s words, and retries a server error', async () => {
    const wrong = await rejection(notifier({ token: 'not-a-token' }).send(delivery([closed()])));
    expect(wrong).toMatchObject({ reason: 'client_error', retryable: false, retryAfterMs: undefined, message: 'Gotify answered HTTP 401: Unauthorized: you need to provide a valid access token or user credentials to access this api' });
    const client = await rejection(notifier({ token: GOTIFY_CLIENT_TOKEN }).send(delivery([closed()])));
    expect(client).toMatchObject({ reason: 'client_error', retryable: false, retryAfterMs: undefined, message: 'Gotify answered HTTP 401: Unauthorized: you need to provide a valid access token or user credentials to access this api' });
    // Gotify 3.x takes a client's token only with an appid: 400.
    env.double.forced.push({ status: 400, body: { error: 'Bad Request', errorCode: 400, errorDescription: 'appid is required when not authenticating with an application token' } });
    const v3 = await rejection(notifier({ token: GOTIFY_CLIENT_TOKEN }).send(delivery([closed()])));
    expect([v3.message, v3.reason, v3.retryable]).toEqual(['Gotify answered HTTP 400: Bad Request: appid is required when not authenticating with an application token', 'client_error', false]);
    env.double.forced.push({ status: 503, headers: { 'retry-after': '2' }, body: { error: 'Service Unavailable', errorCode: 503, errorDescription: 'database is locked' } });
    expect(await rejection(notifier().send(delivery([closed()])))).toMatchObject({ reason: 'server_error', retryable: true, retryAfterMs: 2000, message: 'Gotify answered HTTP 503: Service Unavailable: database is locked' });
  });

  it('never puts the token in an error, even when the answer echoes it', async () => {
    env.double.forced.push({ status: 401, body: { error: 'Unauthorized', errorCode: 401, errorDescription: `token ${GOTIFY_APP_TOKEN} revoked` } });
    expect((await rejection(notifier().send(delivery([closed()])))).message).toBe('Gotify answered HTTP 401: Unauthorized: token <redacted> revoked');
  });

  it('follows a server that moved, and never takes the token to another host', async () => {
    const other = await new GotifyDouble().start();
    try {
      env.double.forced.push({ status: 308, headers: { location: '/gotify/message' } });
      env.double.prefix = '/gotify';
      await notifier().send(delivery([closed()]));
      expect(env.double.requests.map((r) => [r.path, r.headers['x-gotify-key']])).toEqual([['/message', GOTIFY_APP_TOKEN], ['/gotify/message', GOTIFY_APP_TOKEN]]);
      env.double.forced.push({ status: 307, headers: { location: `${other.url}/message` } });
      const err = await rejection(notifier().send(delivery([closed()])));
      expect(other.requests.map((r) => [r.path, r.headers['x-gotify-key']])).toEqual([['/message', undefined]]);
      expect(err).toMatchObject({ reason: 'client_error', retryable: false, retryAfterMs: undefined, message: 'Gotify answered HTTP 401: Unauthorized: you need to provide a valid access token or user credentials to access this api' });
    } finally {
      await other.stop();
    }
  });
});
