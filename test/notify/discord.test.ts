import type { ChatWebhookConfig } from '../../src/notify/kit/chat-webhook';
import { discord } from '../../src/notify/discord';
import { DISCORD_LIMITS, embedSize } from '../../src/notify/discord/message';
import type { Notifier } from '../../src/notify/notifier';
import { DISCORD_TOKEN, DiscordDouble } from '../support/doubles/discord';
import { closed, delivery, HOSTILE, HUGE, perTest, rejection, reopened, storm } from './chat-fixtures';

// Work at full size (an 8,000-alert storm, thousands of coins) takes seconds on a loaded machine: no test of this file is bound by its speed.
jest.setTimeout(60_000);

const env = perTest(() => new DiscordDouble());

/** The receiver as the registry builds it from a `discord:` block. */
function notifier(over: Partial<ChatWebhookConfig> = {}): Notifier {
  return discord.create('community', { webhook_url: env.double.webhookUrl, timeout: 2000, ...over }, env.deps);
}

const TRC_EMBED = {
  title: '🔴 USDT withdrawals disabled on Tron(TRC20) (main)',
  url: 'http://sw.example:9464/#72e6ada129d8b016',
  color: 0xd7263d,
  fields: [
    { name: 'Coin', value: 'USDT', inline: true },
    { name: 'Network', value: 'Tron(TRC20)', inline: true },
    { name: 'Chain', value: 'tron', inline: true },
    { name: 'Message', value: 'Wallet maintenance', inline: false },
  ],
  footer: { text: 'main · critical · firing' },
  timestamp: '2026-01-02T03:04:05.000Z',
};

describe('discord receiver', () => {
  it('posts a group as one message: the headline, an embed per alert, and no mention allowed to ping', async () => {
    await notifier().send(delivery([closed()]));
    expect(env.double.requests[0]?.path).toBe(`/api/webhooks/223704706495545344/${DISCORD_TOKEN}?wait=true`);
    expect(env.double.requests[0]?.headers['content-type']).toBe('application/json');
    expect(env.double.replies[0]?.status).toBe(200);
    expect(env.double.messages[0]?.body).toEqual({
      content: '🔴 **\\[FIRING:1\\] WithdrawDisabled main**',
      embeds: [TRC_EMBED],
      allowed_mentions: { parse: [] },
    });
  });

  it('shows a resolved alert green, says so in the title, and dates it by its end', async () => {
    await notifier().send(delivery([reopened(closed())]));
    expect(env.double.messages[0]?.body).toEqual({
      content: '✅ **\\[RESOLVED\\] WithdrawDisabled main**',
      embeds: [{ ...TRC_EMBED, title: '✅ Resolved: USDT withdrawals disabled on Tron(TRC20) (main)', color: 0x2ba84a, footer: { text: 'main · critical · resolved' }, timestamp: '2026-01-02T04:04:05.000Z' }],
      allowed_mentions: { parse: [] },
    });
  });

  it('makes hostile upstream text inert: markdown escaped, @everyone broken, nothing pings', async () => {
    await notifier({ text_template: '{{commonLabels.coin}}: {{headline}}' }).send(delivery([closed(HOSTILE, { coin: '@everyone <@123>' })]));
    const message = env.double.messages[0];
    expect(message?.pings).toEqual([]);
    expect(message?.body.content).toBe('@\u200beveryone \\<@123\\>: \\[FIRING:1\\] WithdrawDisabled main');
    expect(message?.body.embeds?.[0]?.fields?.at(-1)).toEqual({
      name: 'Message',
      value: '\\<script\\>alert(1)\\</script\\> @\u200beveryone @\u200bhere \\<@123\\> \\<@&456\\> \\<!channel\\> \\<@U123\\> \\<http://evil.example\\|click\\> \\[click\\](http://evil.example) \\*\\*bold\\*\\* & more',
      inline: false,
    });
  });

  it('cuts a 100 KB message to the field limit, and the title to its own', async () => {
    await notifier().send(delivery([closed(HUGE, { coin: `${'#'.repeat(300)}` })]));
    const embed = env.double.messages[0]?.body.embeds?.[0];
    // Counted in UTF-16 units, never fewer than Discord's characters: the mark is two of them.
    expect(embed?.title).toBe(`🔴 \\${'#'.repeat(DISCORD_LIMITS.title - 5)}…`);
    expect(embed?.fields?.at(-1)?.value).toBe(`${'Z'.repeat(DISCORD_LIMITS.fieldValue - 1)}…`);
  });

  it('keeps a storm within ten embeds and 6,000 characters, and says how many alerts it left out', async () => {
    await notifier().send(delivery(storm(25, HUGE)));
    const body = env.double.messages[0]?.body;
    expect(body?.embeds).toHaveLength(DISCORD_LIMITS.embeds);
    expect(body?.content).toBe('🔴 **\\[FIRING:25\\] WithdrawDisabled main**\n15 more alerts not shown (see <http://sw.example:9464/>)');
    const sizes = (body?.embeds ?? []).map((e) => embedSize({ title: e.title ?? '', description: e.description, fields: (e.fields ?? []).map((f) => ({ name: f.name ?? '', value: f.value ?? '', inline: true })), footer: { text: e.footer?.text ?? '' }, color: 0, timestamp: '' }));
    expect(sizes.every((n) => n === DISCORD_LIMITS.total / 10)).toBe(true);
    expect(body?.embeds?.[0]?.fields?.map((f) => f.name)).toEqual(['Coin', 'Network', 'Chain', 'Message']);
  });

  it('gives a long message the room the short ones leave', async () => {
    await notifier().send(delivery([closed(HUGE), ...storm(9)]));
    const embeds = env.double.messages[0]?.body.embeds ?? [];
    expect(embeds.map((e) => e.fields?.at(-1)?.value?.length)).toEqual([DISCORD_LIMITS.fieldValue, ...Array<number>(9).fill('Wallet maintenance'.length)]);
  });

  it('says Discord asked to wait, from retry_after, Retry-After and X-RateLimit-Reset-After, whichever is longest', async () => {
    env.double.rateLimit(0.25);
    const err = await rejection(notifier().send(delivery([closed()])));
    expect(err).toMatchObject({ reason: 'rate_limited', retryable: true, retryAfterMs: 1000, message: 'Discord answered HTTP 429: You are being rate limited.' });
    env.double.forced.push({ status: 429, headers: { 'retry-after': '3', 'x-ratelimit-reset-after': '3.1' }, body: { message: 'The resource is being rate limited.', retry_after: 2.5, global: false } });
    expect((await rejection(notifier().send(delivery([closed()])))).retryAfterMs).toBe(3100);
    await notifier().send(delivery([closed()]));
    expect(env.double.messages).toHaveLength(1);
  });

  it('gives up on an unknown webhook or a wrong token, with Discord\'s message and code', async () => {
    const unknown = await rejection(notifier({ webhook_url: `${env.double.url}/api/webhooks/1/${DISCORD_TOKEN}` }).send(delivery([closed()])));
    expect(unknown).toMatchObject({ reason: 'client_error', retryable: false, message: 'Discord answered HTTP 404: Unknown Webhook (code 10015)' });
    const wrong = await rejection(notifier({ webhook_url: `${env.double.url}/api/webhooks/223704706495545344/not-the-token` }).send(delivery([closed()])));
    expect(wrong.message).toBe('Discord answered HTTP 401: Invalid Webhook Token (code 50027)');
  });

  it('names the fields of an Invalid Form Body, and retries a server error', async () => {
    env.double.forced.push({ status: 400, body: { code: 50035, errors: { embeds: { 0: { title: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 256 or fewer in length.' }] } } } }, message: 'Invalid Form Body' } });
    expect((await rejection(notifier().send(delivery([closed()])))).message).toBe('Discord answered HTTP 400: Invalid Form Body (code 50035): embeds.0.title: Must be 256 or fewer in length.');
    env.double.forced.push({ status: 502, body: { message: '502: Bad Gateway', code: 0 } });
    expect(await rejection(notifier().send(delivery([closed()])))).toMatchObject({ reason: 'server_error', retryable: true, message: 'Discord answered HTTP 502: 502: Bad Gateway (code 0)' });
  });

  it('never puts the token in an error: not from an echoing answer, not from a redirect', async () => {
    env.double.forced.push({ status: 403, body: { message: `no access for ${env.double.webhookUrl}`, code: 50001 } });
    expect((await rejection(notifier().send(delivery([closed()])))).message).toBe('Discord answered HTTP 403: no access for <redacted> (code 50001)');
    env.double.forced.push({ status: 308, headers: { location: `https://127.0.0.1:1/api/webhooks/223704706495545344/${DISCORD_TOKEN}` } });
    const err = await rejection(notifier().send(delivery([closed()])));
    expect(err.message).toBe('Discord redirected (HTTP 308) from http:// to https://, which is not followed: set the receiver\'s url to https://127.0.0.1:1/<redacted>');
  });

  it('renders the templates over the data model, upstream values escaped', async () => {
    await notifier({ text_template: '{{mark}} {{count}} on {{groupLabels.exchange}}', alert_template: '{{where}}: {{message}} ({{labels.severity}}, {{since}}) {{generatorURL}}' }).send(delivery([closed('**now**')]));
    expect(env.double.messages[0]?.body.content).toBe('🔴 1 on main');
    expect(env.double.messages[0]?.body.embeds?.[0]?.description).toBe('main · USDT · Tron(TRC20) · tron: \\*\\*now\\*\\* (critical, since 2026-01-02 03:04:05 UTC) http://sw.example:9464/#72e6ada129d8b016');
  });
});
