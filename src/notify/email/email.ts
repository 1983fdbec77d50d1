import { readFileSync } from 'node:fs';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { leftOut } from '../kit/chat-text';
import { partsWithin, utf8Bytes } from '../kit/parts';
import { NotifyError, type Delivery, type Notification, type NotifiedAlert, type Notifier } from '../notifier';
import type { ReceiverDeps } from '../plugin';
import { alertLine, escapeHtml, headerText, notificationFields } from '../kit/text';

/** The subject template of an e-mail whose block sets none (over notify/kit/text.ts's fields). */
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
  /** Most bytes of the text and HTML parts together (0: no limit); whole alerts past it are left out and counted. */
  maxBodyBytes?: number | undefined;
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
      const { text, html } = emailBody(notification, options.maxBodyBytes ?? 0);
      try {
        await transport.sendMail({
          from: options.from,
          to: options.to,
          subject: headerText(options.subject ?? DEFAULT_SUBJECT, fields),
          // Stable across retries: a mail system can drop a duplicate by its Message-ID.
          messageId: `<${idempotencyKey}@spotwatch>`,
          headers: { 'X-Spotwatch-Group': headerText('{{groupKey}}', fields) },
          text,
          html,
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

/** `… and 3 more alerts not shown`: the line that counts the alerts an e-mail had no room for. */
function moreLine(count: number): string {
  return count > 0 ? `… and ${leftOut(count)}` : '';
}

/** One alert as a row of the HTML part. */
function htmlRow(a: NotifiedAlert): string {
  const msg = a.annotations.withdraw_desc ?? a.annotations.deposit_desc ?? '';
  const cells = [
    a.status === 'firing' ? 'FIRING' : 'RESOLVED',
    a.annotations.summary ?? a.labels.alertname ?? '',
    [a.labels.coin, a.labels.network, a.labels.symbol].filter(Boolean).join(' / '),
    a.status === 'resolved' ? a.endsAt : a.startsAt,
    msg,
  ];
  return `<tr>${cells.map((c) => `<td style="padding:4px 8px;border-bottom:1px solid #ddd">${escapeHtml(c)}</td>`).join('')}</tr>`;
}

function textPart(n: Notification, lines: readonly string[], more: string): string {
  return `${[...lines, ...(more === '' ? [] : [more])].join('\n')}\n\n${n.externalURL}\n`;
}

function htmlPart(n: Notification, rows: readonly string[], more: string): string {
  return `<!doctype html><html><body style="font-family:sans-serif">
<p>${escapeHtml(`${n.alerts.length + n.truncatedAlerts} alert(s) for ${Object.values(n.groupLabels).join(' / ')}`)}</p>
<table style="border-collapse:collapse"><tr><th>status</th><th>summary</th><th>where</th><th>since</th><th>message</th></tr>
${rows.join('\n')}
</table>
${more === '' ? '' : `<p>${escapeHtml(more)}</p>\n`}<p><a href="${escapeHtml(n.externalURL)}">${escapeHtml(n.externalURL)}</a></p>
</body></html>`;
}

/**
 * The text and HTML parts, together within `maxBytes` (0: no limit): a line and a row per alert,
 * from the first, as many as fit; the rest left out and counted in a closing line of each part.
 */
export function emailBody(n: Notification, maxBytes: number): { text: string; html: string } {
  const lines = n.alerts.map(alertLine);
  const rows = n.alerts.map(htmlRow);
  let keep = n.alerts.length;
  if (maxBytes > 0) {
    // What every e-mail has, measured with the longest closing line it may get.
    const more = moreLine(n.alerts.length + n.truncatedAlerts);
    const fixed = utf8Bytes(textPart(n, [], more)) + utf8Bytes(htmlPart(n, [], more)) + 2;
    keep = partsWithin(lines.map((l, i) => utf8Bytes(l) + utf8Bytes(rows[i] ?? '') + 2), maxBytes - fixed);
  }
  const more = moreLine(n.alerts.length - keep + n.truncatedAlerts);
  return { text: textPart(n, lines.slice(0, keep), more), html: htmlPart(n, rows.slice(0, keep), more) };
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
