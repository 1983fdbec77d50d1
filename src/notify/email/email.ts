import { readFileSync } from 'node:fs';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { NotifyError, type Delivery, type Notifier } from '../notifier';
import type { ReceiverDeps } from '../plugin';
import { alertLine, escapeHtml, headerText, notificationFields } from '../text';

/** The subject template of an e-mail whose block sets none (over notify/text.ts's fields). */
export const DEFAULT_SUBJECT = '[spotwatch] {{status}}: {{groupLabels.alertname}} ({{count}}) {{groupLabels.exchange}}';

export interface EmailOptions {
  name: string;
  smtpUrl: string;
  from: string;
  to: string[];
  subject?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
  passwordFile?: string | undefined;
  requireTls?: boolean | undefined;
  tls?: { rejectUnauthorized: boolean; caFile?: string | undefined } | undefined;
  timeoutMs: number;
}

/** The `email` receiver: one e-mail per group, with a plain-text and an HTML part. */
export function emailNotifier(options: EmailOptions, deps: Pick<ReceiverDeps, 'mailTransport'>): Notifier {
  const url = new URL(options.smtpUrl);
  const password = options.password ?? (options.passwordFile !== undefined ? readFileSync(options.passwordFile, 'utf8').trim() : undefined) ?? (url.password ? decodeURIComponent(url.password) : undefined);
  const user = options.username ?? (url.username ? decodeURIComponent(url.username) : undefined);
  const transportOptions: SMTPTransport.Options = {
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    requireTLS: options.requireTls ?? false,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    tls: { rejectUnauthorized: options.tls?.rejectUnauthorized ?? true, ...(options.tls?.caFile !== undefined && { ca: readFileSync(options.tls.caFile) }) },
    ...(user !== undefined && { auth: { user, pass: password ?? '' } }),
  };
  const transport = deps.mailTransport(transportOptions);
  return {
    name: options.name,
    async send({ notification, idempotencyKey }: Delivery) {
      const fields = notificationFields(notification);
      const lines = notification.alerts.map(alertLine);
      try {
        await transport.sendMail({
          from: options.from,
          to: options.to,
          subject: headerText(options.subject ?? DEFAULT_SUBJECT, fields),
          // Stable across retries: a mail system can drop a duplicate by its Message-ID.
          messageId: `<${idempotencyKey}@spotwatch>`,
          headers: { 'X-Spotwatch-Group': headerText('{{groupKey}}', fields) },
          text: `${lines.join('\n')}\n\n${notification.externalURL}\n`,
          html: htmlBody(notification),
        });
      } catch (err) {
        throw classify(err);
      }
    },
    async close() {
      transport.close();
    },
  };
}

function htmlBody(n: Delivery['notification']): string {
  const rows = n.alerts
    .map((a) => {
      const msg = a.annotations.withdraw_desc ?? a.annotations.deposit_desc ?? '';
      const cells = [
        a.status === 'firing' ? 'FIRING' : 'RESOLVED',
        a.annotations.summary ?? a.labels.alertname ?? '',
        [a.labels.coin, a.labels.network, a.labels.symbol].filter(Boolean).join(' / '),
        a.status === 'resolved' ? a.endsAt : a.startsAt,
        msg,
      ];
      return `<tr>${cells.map((c) => `<td style="padding:4px 8px;border-bottom:1px solid #ddd">${escapeHtml(c)}</td>`).join('')}</tr>`;
    })
    .join('\n');
  return `<!doctype html><html><body style="font-family:sans-serif">
<p>${escapeHtml(`${n.alerts.length} alert(s) for ${Object.values(n.groupLabels).join(' / ')}`)}</p>
<table style="border-collapse:collapse"><tr><th>status</th><th>summary</th><th>where</th><th>since</th><th>message</th></tr>
${rows}
</table>
<p><a href="${escapeHtml(n.externalURL)}">${escapeHtml(n.externalURL)}</a></p>
</body></html>`;
}

/** SMTP 4xx are transient (retry), 5xx permanent; no connection or a timeout, retry. */
function classify(err: unknown): NotifyError {
  const e = err as { responseCode?: number; code?: string; response?: string; message?: string };
  const reply = (e.response ?? e.message ?? String(err)).replace(/[\r\n]+/g, ' ').slice(0, 300);
  if (typeof e.responseCode === 'number') {
    if (e.responseCode >= 500) return new NotifyError(`SMTP server refused: ${reply}`, 'client_error', false);
    return new NotifyError(`SMTP server deferred: ${reply}`, 'server_error', true);
  }
  if (e.code === 'ETIMEDOUT') return new NotifyError(`SMTP server timed out: ${reply}`, 'timeout', true);
  if (e.code === 'EAUTH') return new NotifyError(`SMTP authentication failed: ${reply}`, 'client_error', false);
  return new NotifyError(`SMTP server unreachable: ${reply}`, 'connect', true);
}
