import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { main } from '../../src/cli';
import { parseConfig, redactConfig, type Config } from '../../src/config';
import { receiverRegistry } from '../../src/notify/registry';
import { GOTIFY_APP_TOKEN, GotifyDouble } from '../support/doubles/gotify';
import { capturedLogger } from '../support/log-capture';

/** The `gotify` block as check-config, everything that shows config, the logs and test-notify see it. */
const FILE = 'c.yaml';
const TOKEN = 'AbCdEf.GhIjKlM9';

function parsed(text: string): Config {
  const result = parseConfig(text, FILE, { GOTIFY_APP_TOKEN: TOKEN }, '/etc/spotwatch');
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.config;
}

const TEXT = `exchanges:
  - name: main
notify:
  receivers:
    - name: phone
      gotify: { url: https://gotify.example.org, token: "\${GOTIFY_APP_TOKEN}" }
    - name: plain
      gotify: { url: "https://u:p@push.example.org/gotify", token: "${TOKEN}", markdown: false, timeout: 5s }
`;

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe('the gotify receiver\'s config', () => {
  it('validates the block and fills its defaults', () => {
    expect(parsed(TEXT).notify.receivers).toStrictEqual([
      { name: 'phone', send_resolved: true, kind: 'gotify', gotify: { url: 'https://gotify.example.org', token: TOKEN, timeout: 10_000, markdown: true } },
      { name: 'plain', send_resolved: true, kind: 'gotify', gotify: { url: 'https://u:p@push.example.org/gotify', token: TOKEN, timeout: 5_000, markdown: false } },
    ]);
  });

  it('refuses a token in the URL without quoting it, and says what is missing', () => {
    const text = `exchanges:
  - name: main
notify:
  receivers:
    - name: phone
      gotify: { url: "https://gotify.example.org/message?token=s3cr3tt0k3n" }
`;
    const result = parseConfig(text, FILE, {}, '/');
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toEqual([
      `${FILE}:6:15: notify.receivers[0].gotify: missing required key "token"`,
      `${FILE}:6:22: notify.receivers[0].gotify.url: the URL must not carry the token (?token=..., not shown): put it in \`token\`, which is sent in the X-Gotify-Key header`,
    ]);
    expect(JSON.stringify(result)).not.toContain('s3cr3tt0k3n');
  });

  it('hides the token (and a URL\'s password) wherever config is shown, and in log lines', () => {
    expect(redactConfig(parsed(TEXT)).notify.receivers.map((r) => r[r.kind])).toEqual([
      { url: 'https://gotify.example.org', token: '<redacted>', timeout: 10_000, markdown: true },
      { url: 'https://<redacted>@push.example.org/gotify', token: '<redacted>', timeout: 5_000, markdown: false },
    ]);
    const { logger, lines, text } = capturedLogger('info', { redact: receiverRegistry.logRedactPaths() });
    for (const receiver of parsed(TEXT).notify.receivers) logger.info({ receiver }, 'configured');
    logger.info({ token: TOKEN }, 'on its own');
    expect(lines).toHaveLength(3);
    expect(text()).not.toContain(TOKEN);
  });

  describe('spotwatch test-notify', () => {
    let dir: string;
    let double: GotifyDouble;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'spotwatch-gotify-cli-'));
      double = await new GotifyDouble().start();
      writeFileSync(join(dir, 'c.yaml'), `exchanges:
  - name: main
log: { level: error }
notify:
  receivers:
    - name: phone
      gotify: { url: "${double.url}", token: "\${GOTIFY_APP_TOKEN}" }
`);
    });
    afterAll(async () => {
      await double.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    async function run(token: string): Promise<{ code: number; out: string; err: string }> {
      const stdout = new Sink();
      const stderr = new Sink();
      const code = await main(['test-notify', '--receiver', 'phone', '--config', join(dir, 'c.yaml')], { stdout, stderr, env: { SPOTWATCH_LOG_LEVEL: 'silent', GOTIFY_APP_TOKEN: token } });
      return { code, out: stdout.text, err: stderr.text };
    }

    it('sends a marked test, and prints Gotify\'s exact answer when it refuses, without the token', async () => {
      expect(await run(GOTIFY_APP_TOKEN)).toEqual({ code: 0, out: 'test notification delivered to phone (gotify)\n', err: '' });
      expect(double.messages[0]?.title).toBe('🔵 [FIRING:1] SpotwatchTestNotification');
      expect(double.messages[0]?.message).toMatch(/^🔵 \*\*spotwatch test notification\\: ignore me\*\* {2}\n/);
      const refused = await run('wrong-token-123');
      expect(refused).toEqual({ code: 1, out: '', err: 'test notification to phone (gotify) failed [client_error]: Gotify answered HTTP 401: Unauthorized: you need to provide a valid access token or user credentials to access this api\n' });
      double.forced.push({ status: 429, headers: { 'retry-after': '30' }, body: 'slow down' });
      expect((await run(GOTIFY_APP_TOKEN)).err).toBe('test notification to phone (gotify) failed [rate_limited, would be retried]: Gotify answered HTTP 429: slow down\n');
    });
  });
});
