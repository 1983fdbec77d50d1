import type { ReceiverPlugin } from '../plugin';
import { emailNotifier } from './email';
import { EMAIL_DEFAULTS, emailSchema, type EmailConfig } from './schema';

/** `email`: one e-mail per group over SMTP, a plain-text and an HTML part; subject DEFAULT_SUBJECT unless set. */
export const email = {
  kind: 'email',
  schema: emailSchema,
  defaults: EMAIL_DEFAULTS,
  redact: {
    smtp_url: 'url',
    from: 'keep',
    to: 'keep',
    subject: 'keep',
    username: 'keep',
    password: 'secret',
    password_file: 'keep',
    require_tls: 'keep',
    tls: 'keep',
    timeout: 'keep',
    max_body_bytes: 'keep',
  },
  create: (name, c, deps) =>
    emailNotifier(
      {
        name,
        smtpUrl: c.smtp_url,
        from: c.from,
        to: c.to,
        subject: c.subject,
        username: c.username,
        password: c.password,
        passwordFile: c.password_file,
        requireTls: c.require_tls,
        tls: c.tls ? { rejectUnauthorized: c.tls.reject_unauthorized, caFile: c.tls.ca_file } : undefined,
        timeoutMs: c.timeout,
        maxBodyBytes: c.max_body_bytes,
      },
      deps,
    ),
} satisfies ReceiverPlugin<EmailConfig>;
