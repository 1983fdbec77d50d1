import type { ChatWebhookConfig } from '../../src/notify/kit/chat-webhook';
import type { Notifier } from '../../src/notify/notifier';
import { slack } from '../../src/notify/slack';
import { SLACK_LIMITS, SLACK_SECTIONS_BUDGET } from '../../src/notify/slack/message';
import { SLACK_PATH, SlackDouble, type SlackHookState } from '../support/doubles/slack';
import { closed, delivery, HOSTILE, HUGE, perTest, rejection, reopened, storm } from './chat-fixtures';

// Work at full size (an 8,000-alert storm, thousands of coins) takes seconds on a loaded machine: no test of this file is bound by its speed.
jest.setTimeout(60_000);

const env = perTest(() => new SlackDouble());

/** The receiver as the registry builds it from a `slack:` block. */
function notifier(over: Partial<ChatWebhookConfig> = {}): Notifier {
  return slack.create('ops', { webhook_url: env.double.webhookUrl, timeout: 2000, ...over }, env.deps);
}

const STATUS_PAGE = { type: 'context', elements: [{ type: 'mrkdwn', text: '<http://sw.example:9464/|status page>' }] };

describe('slack receiver', () => {
  it('posts a group as one message: the fallback text, a header, a section per alert and the status page', async () => {
    await notifier().send(delivery([closed()]));
    expect(env.double.requests[0]?.path).toBe(SLACK_PATH);
    expect(env.double.replies[0]).toEqual({ status: 200, body: 'ok' });
    expect(env.double.messages[0]?.body).toEqual({
      text: '🔴 [FIRING:1] WithdrawDisabled main',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: '🔴 [FIRING:1] WithdrawDisabled main', emoji: true } },
        { type: 'section', text: { type: 'mrkdwn', text: '🔴 *USDT withdrawals disabled on Tron(TRC20) (main)*\nmain · USDT · Tron(TRC20) · tron · since 2026-01-02 03:04:05 UTC\n> Wallet maintenance' } },
        STATUS_PAGE,
      ],
    });
  });

  it('says when an alert resolved', async () => {
    await notifier().send(delivery([reopened(closed())]));
    expect(env.double.messages[0]?.body.blocks?.[1]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: '✅ *Resolved: USDT withdrawals disabled on Tron(TRC20) (main)*\nmain · USDT · Tron(TRC20) · tron · resolved 2026-01-02 04:04:05 UTC\n> Wallet maintenance' },
    });
  });

  it('escapes &, < and > in upstream text, so that it forms no link, mention or <!channel>', async () => {
    await notifier({ text_template: '{{commonLabels.coin}} {{headline}}' }).send(delivery([closed(HOSTILE, { coin: '<!channel>' })]));
    const message = env.double.messages[0];
    // Only the status page link is a link: nothing an exchange wrote.
    expect(message?.specials).toEqual(['<http://sw.example:9464/|status page>']);
    expect(message?.body.text).toBe('&lt;!channel&gt; [FIRING:1] WithdrawDisabled main');
    expect(message?.body.blocks?.[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: '<!channel> [FIRING:1] WithdrawDisabled main', emoji: true } });
    expect(message?.body.blocks?.[1]?.text?.text).toBe(
      '🔴 *&lt;!channel&gt; withdrawals disabled on Tron(TRC20) (main)*\nmain · &lt;!channel&gt; · Tron(TRC20) · tron · since 2026-01-02 03:04:05 UTC\n'
      + '> &lt;script&gt;alert(1)&lt;/script&gt; @everyone @here &lt;@123&gt; &lt;@&amp;456&gt; &lt;!channel&gt; &lt;@U123&gt; &lt;http://evil.example|click&gt; [click](http://evil.example) **bold** &amp; more',
    );
  });

  it('cuts a 100 KB message to a section\'s 3,000 characters, and never inside an entity', async () => {
    await notifier().send(delivery([closed(HUGE)]));
    const text = env.double.messages[0]?.body.blocks?.[1]?.text?.text ?? '';
    expect(text).toHaveLength(SLACK_LIMITS.section);
    expect(text.endsWith('ZZZ…')).toBe(true);
    await notifier().send(delivery([closed('&'.repeat(5000))]));
    expect(env.double.messages[1]?.body.blocks?.[1]?.text?.text).toMatch(/&amp;…$/);
  });

  it('keeps a storm within 50 blocks and says how many alerts it left out', async () => {
    await notifier().send(delivery(storm(60, HUGE)));
    const blocks = env.double.messages[0]?.body.blocks ?? [];
    expect(blocks).toHaveLength(SLACK_LIMITS.blocks);
    const sections = blocks.filter((b) => b.type === 'section');
    expect(sections).toHaveLength(48);
    expect(sections.reduce((n, b) => n + (b.text?.text ?? '').length, 0)).toBeLessThanOrEqual(SLACK_SECTIONS_BUDGET);
    expect(blocks.at(-1)).toEqual({ type: 'context', elements: [{ type: 'mrkdwn', text: '12 more alerts not shown · <http://sw.example:9464/|status page>' }] });
  });

  it('waits as long as a 429\'s Retry-After asks', async () => {
    env.double.rateLimit(7);
    expect(await rejection(notifier().send(delivery([closed()])))).toMatchObject({ reason: 'rate_limited', retryable: true, retryAfterMs: 7000, message: 'Slack answered HTTP 429: rate_limited' });
    await notifier().send(delivery([closed()]));
    expect(env.double.messages).toHaveLength(1);
  });

  it.each<[SlackHookState, number]>([
    ['no_service', 404],
    ['channel_not_found', 404],
    ['channel_is_archived', 410],
    ['action_prohibited', 403],
    ['invalid_token', 403],
  ])('gives up when Slack answers %s, and says so', async (state, status) => {
    env.double.state = state;
    expect(await rejection(notifier().send(delivery([closed()])))).toMatchObject({ reason: 'client_error', retryable: false, message: `Slack answered HTTP ${status}: ${state}` });
  });

  it('retries a server error, and quotes it', async () => {
    env.double.forced.push({ status: 500, body: 'rollup_error' });
    expect(await rejection(notifier().send(delivery([closed()])))).toMatchObject({ reason: 'server_error', retryable: true, message: 'Slack answered HTTP 500: rollup_error' });
  });

  it('never puts the webhook URL in an error, even when an answer echoes it', async () => {
    env.double.forced.push({ status: 400, body: `invalid_payload for ${env.double.webhookUrl}` });
    expect((await rejection(notifier().send(delivery([closed()])))).message).toBe('Slack answered HTTP 400: invalid_payload for <redacted>');
  });

  it('renders the templates over the data model, upstream values escaped', async () => {
    await notifier({ text_template: '{{mark}} {{firing}} firing', alert_template: '*{{labels.coin}}* on {{labels.network}}: {{message}} <{{generatorURL}}|details>' }).send(delivery([closed('<b>now</b>')]));
    expect(env.double.messages[0]?.body.text).toBe('🔴 1 firing');
    expect(env.double.messages[0]?.body.blocks?.[1]?.text?.text).toBe('*USDT* on Tron(TRC20): &lt;b&gt;now&lt;/b&gt; <http://sw.example:9464/#72e6ada129d8b016|details>');
  });
});
