import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { main } from '../../src/cli';
import { SmtpSink } from '../support/smtp';
import { WebhookReceiver } from '../support/webhook-receiver';

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await main(args, { stdout, stderr, env: { SPOTWATCH_LOG_LEVEL: 'silent' } });
  return { code, out: stdout.text, err: stderr.text };
}

describe('spotwatch check-config', () => {
  it('names the config file, the line and column of rules_file and the missing path when the rules file is not there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spotwatch-check-'));
    try {
      writeFileSync(join(dir, 'c.yaml'), 'exchanges:\n  - name: main\n# the rules\n  # indented\nrules_file: rules/alerts.yaml\n');
      expect(await run(['check-config', '--config', join(dir, 'c.yaml')])).toEqual({ code: 1, out: '', err: `${join(dir, 'c.yaml')}:5:1: rules_file: cannot read ${join(dir, 'rules/alerts.yaml')}: no such file\n` });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('spotwatch test-notify', () => {
  let dir: string;
  let hook: WebhookReceiver;
  let smtp: SmtpSink;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'spotwatch-cli-'));
    hook = await new WebhookReceiver().start();
    smtp = await new SmtpSink().start();
    writeFileSync(
      join(dir, 'c.yaml'),
      `exchanges:\n  - name: main\nlog: { level: error }\nnotify:\n  receivers:\n    - name: hook\n      webhook: { url: "${hook.url}/t" }\n    - name: mail\n      email: { smtp_url: "${smtp.url}", from: a@example.org, to: [b@example.org] }\n`,
    );
  });
  afterAll(async () => {
    await hook.stop();
    await smtp.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends a marked notification through the webhook and says so', async () => {
    const r = await run(['test-notify', '--receiver', 'hook', '--config', join(dir, 'c.yaml')]);
    expect(r).toEqual({ code: 0, out: 'test notification delivered to hook (webhook)\n', err: '' });
    const body = hook.received[0]?.body as { status: string; alerts: { labels: Record<string, string>; annotations: Record<string, string> }[] };
    expect(body.status).toBe('firing');
    expect(body.alerts[0]?.labels).toEqual({ alertname: 'SpotwatchTestNotification', exchange: 'test', severity: 'info' });
    expect(body.alerts[0]?.annotations.summary).toBe('spotwatch test notification: ignore me');
  });

  it('reports the SMTP server\'s exact reply when it refuses', async () => {
    smtp.replies.push({ code: 550, message: 'Mailbox unavailable' });
    const r = await run(['test-notify', '--receiver', 'mail', '--config', join(dir, 'c.yaml')]);
    expect(r.code).toBe(1);
    expect(r.err).toBe('test notification to mail (email) failed [client_error]: SMTP server refused: 550 Mailbox unavailable\n');
  });

  it('names the receivers there are when asked for one that is not', async () => {
    const r = await run(['test-notify', '--receiver', 'pager', '--config', join(dir, 'c.yaml')]);
    expect(r).toEqual({ code: 1, out: '', err: 'no receiver named "pager" (configured: hook, mail)\n' });
  });

  it('explains its own usage', async () => {
    const r = await run(['test-notify']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('test-notify needs --receiver NAME');
  });
});

describe('spotwatch simulate --coins', () => {
  it('refuses a market past its bound before building it (999999999 coins grew memory by 90 MB/s)', async () => {
    const { code, err } = await run(['simulate', '--coins', '999999999']);
    expect(code).toBe(2);
    expect(err.split('\n')[0]).toBe('spotwatch: --coins takes a whole number up to 20000, got "999999999"');
  });
});
