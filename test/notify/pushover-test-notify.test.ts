import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli';
import { PUSHOVER_TOKEN, PUSHOVER_USER, PushoverDouble } from '../support/doubles/pushover';
import { Sink } from '../support/sink';

/** `spotwatch test-notify --receiver NAME` through the Pushover receiver's real path, its keys from the environment. */
describe('spotwatch test-notify with a pushover receiver', () => {
  let dir: string;
  let double: PushoverDouble;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'spotwatch-pushover-cli-'));
    double = await new PushoverDouble().start();
    writeFileSync(join(dir, 'c.yaml'), `exchanges:
  - name: main
log: { level: error }
notify:
  receivers:
    - name: oncall-phone
      pushover: { token: "\${PUSHOVER_APP}", user: "\${PUSHOVER_USER}", api_url: "${double.apiUrl}" }
`);
  });
  afterAll(async () => {
    await double.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(user = PUSHOVER_USER): Promise<{ code: number; out: string; err: string }> {
    const stdout = new Sink();
    const stderr = new Sink();
    const code = await main(['test-notify', '--receiver', 'oncall-phone', '--config', join(dir, 'c.yaml')], {
      stdout, stderr, env: { SPOTWATCH_LOG_LEVEL: 'silent', PUSHOVER_APP: PUSHOVER_TOKEN, PUSHOVER_USER: user },
    });
    return { code, out: stdout.text, err: stderr.text };
  }

  it('sends a marked, quiet test push', async () => {
    expect(await run()).toEqual({ code: 0, out: 'test notification delivered to oncall-phone (pushover)\n', err: '' });
    expect(double.messages).toEqual([expect.objectContaining({
      title: '🔵 [FIRING:1] SpotwatchTestNotification',
      message: expect.stringMatching(/^<b>🔵 spotwatch test notification: ignore me<\/b>\ntest, since /) as unknown as string,
      priority: -1,
      html: 1,
    })]);
  });

  it('prints Pushover\'s exact refusal, without the keys', async () => {
    expect(await run('u'.repeat(30))).toEqual({
      code: 1, out: '', err: 'test notification to oncall-phone (pushover) failed [client_error]: Pushover answered HTTP 400: user identifier is not a valid user, group, or subscribed user key\n',
    });
  });
});
