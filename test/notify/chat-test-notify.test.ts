import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { main } from '../../src/cli';
import { PAGERDUTY_ROUTING_KEY } from '../support/doubles/pagerduty';
import { chatDoubles } from './chat-fixtures';

/** `spotwatch test-notify --receiver NAME` through each chat receiver's real path. */
class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe('spotwatch test-notify with the chat receivers', () => {
  let dir: string;
  let doubles: Awaited<ReturnType<typeof chatDoubles>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'spotwatch-chat-cli-'));
    doubles = await chatDoubles();
    const { discord, slack, pd } = doubles;
    writeFileSync(join(dir, 'c.yaml'), `exchanges:
  - name: main
log: { level: error }
notify:
  receivers:
    - name: community
      discord: { webhook_url: "${discord.webhookUrl}" }
    - name: ops
      slack: { webhook_url: "${slack.webhookUrl}" }
    - name: pager
      pagerduty: { routing_key: "${PAGERDUTY_ROUTING_KEY}", url: "${pd.enqueueUrl}" }
`);
  });
  afterAll(async () => {
    await doubles.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(receiver: string): Promise<{ code: number; out: string; err: string }> {
    const stdout = new Sink();
    const stderr = new Sink();
    const code = await main(['test-notify', '--receiver', receiver, '--config', join(dir, 'c.yaml')], { stdout, stderr, env: { SPOTWATCH_LOG_LEVEL: 'silent' } });
    return { code, out: stdout.text, err: stderr.text };
  }

  it('sends a marked test to Discord, Slack and PagerDuty', async () => {
    const { discord, slack, pd } = doubles;
    expect(await run('community')).toEqual({ code: 0, out: 'test notification delivered to community (discord)\n', err: '' });
    expect(discord.messages[0]?.body.embeds?.[0]?.title).toBe('🔵 spotwatch test notification: ignore me');
    expect(await run('ops')).toEqual({ code: 0, out: 'test notification delivered to ops (slack)\n', err: '' });
    expect(slack.messages[0]?.body.text).toBe('🔵 [FIRING:1] SpotwatchTestNotification');
    expect(await run('pager')).toEqual({ code: 0, out: 'test notification delivered to pager (pagerduty)\n', err: '' });
    // The test is an event: its incident is opened and closed at once, and pages no one for long.
    expect(pd.events.map((e) => [e.event_action, e.payload?.summary])).toEqual([['trigger', 'spotwatch test notification: ignore me'], ['resolve', undefined]]);
  });

  it('prints the service\'s exact answer when it refuses', async () => {
    const { discord, slack, pd } = doubles;
    discord.forced.push({ status: 404, body: { message: 'Unknown Webhook', code: 10015 } });
    expect(await run('community')).toEqual({ code: 1, out: '', err: 'test notification to community (discord) failed [client_error]: Discord answered HTTP 404: Unknown Webhook (code 10015)\n' });
    slack.state = 'channel_is_archived';
    expect(await run('ops')).toEqual({ code: 1, out: '', err: 'test notification to ops (slack) failed [client_error]: Slack answered HTTP 410: channel_is_archived\n' });
    pd.forced.push({ status: 400, body: { status: 'invalid event', message: 'Event object is invalid', errors: ["'payload.summary' is missing"] } });
    expect(await run('pager')).toEqual({ code: 1, out: '', err: 'test notification to pager (pagerduty) failed [client_error]: PagerDuty answered HTTP 400: Event object is invalid: \'payload.summary\' is missing\n' });
    discord.rateLimit(2);
    expect((await run('community')).err).toBe('test notification to community (discord) failed [rate_limited, would be retried]: Discord answered HTTP 429: You are being rate limited.\n');
  });
});
