import type { Alert } from '../../src/alerts/alert';
import { buildDelivery } from '../../src/notify/pipeline/build-delivery';
import { upstreamText } from '../../src/lib/upstream-text';
import { emailNotifier } from '../../src/notify/email/email';
import { DEFAULT_EMAIL_MAX_BODY_BYTES } from '../../src/notify/email/schema';
import { NotifyError } from '../../src/notify/notifier';
import { SmtpSink } from '../support/smtp';
import { receiverDeps } from '../support/receiver-deps';

/** A connection pool per test, closed after it, as each notifier used to open and close its own. */
let deps: ReturnType<typeof receiverDeps>;
beforeEach(() => {
  deps = receiverDeps();
});
afterEach(() => deps.close());

const hostile = '<script>alert(1)</script> & "maint"\r\nBcc: victim@example.org';

const alert: Alert = {
  fingerprint: '0123456789abcdef', ruleId: 'r', entity: 'e',
  labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: 'USDT', network: 'Tron(TRC20)\r\nX-Evil: 1', kind: 'withdraw_disabled' },
  annotations: { summary: `USDT withdrawals closed ${hostile}`, description: 'd', withdraw_desc: hostile },
  status: 'firing', activeAt: 0, startsAt: Date.UTC(2026, 0, 2, 3, 4, 5), endsAt: null, lastActiveAt: 0, lastNotifiedAt: 0, value: 1, event: false,
};

describe('email receiver', () => {
  let smtp: SmtpSink;
  beforeEach(async () => {
    smtp = await new SmtpSink().start();
  });
  afterEach(() => smtp.stop());

  function mailer(over: Partial<Parameters<typeof emailNotifier>[0]> = {}) {
    return emailNotifier({ name: 'mail', smtpUrl: smtp.url, from: 'spotwatch@example.org', to: ['ops@example.org', 'desk@example.org'], timeoutMs: 2000, ...over }, deps);
  }

  it('sends one e-mail per group with a text and an HTML part, hostile text escaped and kept out of headers', async () => {
    const m = mailer({ subject: '[sw] {{status}} {{groupLabels.alertname}} {{commonAnnotations.withdraw_desc}}' });
    const delivery = buildDelivery('mail', { exchange: 'main', alertname: 'WithdrawDisabled' }, [alert, { ...alert, fingerprint: 'ffffffffffffffff', labels: { ...alert.labels, coin: 'USDC' } }], 'http://sw:9464', 1);
    await m.send(delivery);
    await m.close?.();
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.from).toBe('spotwatch@example.org');
    expect(mail.to).toEqual(['ops@example.org', 'desk@example.org']);
    expect(mail.headers.subject).toBe('[sw] firing WithdrawDisabled <script>alert(1)</script> & "maint" Bcc: victim@example.org');
    expect(mail.headers['message-id']).toBe(`<${delivery.idempotencyKey}@spotwatch>`);
    expect(mail.headers.bcc).toBeUndefined();
    expect(mail.headers['x-evil']).toBeUndefined();
    expect(mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'))).not.toMatch(/\r\n(Bcc|X-Evil):/i);
    const flat = hostile.replace('\r\n', ' ');
    expect(mail.text.split(/\r?\n/)[0]).toBe(`FIRING  USDT withdrawals closed ${flat}  [main / USDT / Tron(TRC20) X-Evil: 1] since 2026-01-02T03:04:05.000Z  message: ${flat}`);
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;maint&quot;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('<a href="http://sw:9464">http://sw:9464</a>');
  });

  it('keeps a storm of 4,000 alerts with 100 KB messages (cut to 1,000 characters where they enter) within max_body_bytes (default 1 MiB), saying how many it left out', async () => {
    const message = upstreamText('€ <maintenance> '.repeat(6_250));
    const storm = Array.from({ length: 4000 }, (_, i): Alert => ({
      ...alert,
      fingerprint: i.toString(16).padStart(16, '0'),
      labels: { ...alert.labels, network: 'Tron(TRC20)', coin: `C${String(i).padStart(4, '0')}` },
      annotations: { summary: `C${i} withdrawals closed`, description: `Exchange message: ${message}`, withdraw_desc: message },
    }));
    expect(DEFAULT_EMAIL_MAX_BODY_BYTES).toBe(1_048_576);
    const m = mailer({ maxBodyBytes: DEFAULT_EMAIL_MAX_BODY_BYTES });
    await m.send(buildDelivery('mail', { alertname: 'WithdrawDisabled' }, storm, 'http://sw:9464', 1));
    await m.close?.();
    const mail = smtp.mails[0]!;
    expect(Buffer.byteLength(mail.text) + Buffer.byteLength(mail.html)).toBeLessThanOrEqual(1_048_576);
    // SMTP carries lines ending in CRLF.
    const text = mail.text.replace(/\r\n/g, '\n');
    const shown = text.split('\n').filter((l) => l.startsWith('FIRING')).length;
    expect(shown).toBeGreaterThan(50);
    expect(text.endsWith(`\n… and ${4000 - shown} more alerts not shown\n\nhttp://sw:9464\n`)).toBe(true);
    expect(mail.html.match(/<tr><td/g)).toHaveLength(shown);
    expect(mail.html).toContain(`<p>… and ${4000 - shown} more alerts not shown</p>`);
    expect(mail.html).toContain('<p>4000 alert(s) for WithdrawDisabled</p>');
  });

  it.each([
    [{ code: 451, message: 'Try again later' }, 'server_error', true, 'SMTP server deferred: 451 Try again later'],
    [{ code: 550, message: 'Mailbox unavailable' }, 'client_error', false, 'SMTP server refused: 550 Mailbox unavailable'],
  ])('reports the SMTP server\'s reply %p', async (reply, reason, retryable, message) => {
    smtp.replies.push(reply);
    const m = mailer();
    const err = await m.send(buildDelivery('mail', {}, [alert], 'http://sw', 1)).catch((e: unknown) => e);
    await m.close?.();
    expect(err).toBeInstanceOf(NotifyError);
    expect(err).toMatchObject({ reason, retryable, message });
  });

  it('reports a server that does not answer in time, and one that is not there', async () => {
    smtp.replies.push({ hangMs: 3000 });
    const slow = mailer({ timeoutMs: 300 });
    await expect(slow.send(buildDelivery('mail', {}, [alert], 'http://sw', 1))).rejects.toMatchObject({ retryable: true });
    await slow.close?.();
    const url = smtp.url;
    await smtp.stop();
    const gone = emailNotifier({ name: 'mail', smtpUrl: url, from: 'a@b.c', to: ['d@e.f'], timeoutMs: 1000 }, deps);
    await expect(gone.send(buildDelivery('mail', {}, [alert], 'http://sw', 1))).rejects.toMatchObject({ reason: 'connect', retryable: true });
    await gone.close?.();
    smtp = await new SmtpSink().start();
  });
});
