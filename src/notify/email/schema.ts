import { z } from 'zod';
import { byteSize, describeValue, urlWithScheme, withDefault } from '../../lib/schema-types';
import type { SchemaContext } from '../plugin';
import { DEFAULT_RECEIVER_TIMEOUT_MS, receiverTimeout } from '../kit/receiver-schema';

/**
 * 1 MiB of text and HTML together (about 1.4 MB once encoded for SMTP: far below the 10-25 MB
 * mail systems take, and already more than anyone reads); 0 = no limit.
 */
export const DEFAULT_EMAIL_MAX_BODY_BYTES = 1024 * 1024;

export const EMAIL_DEFAULTS = { timeout: DEFAULT_RECEIVER_TIMEOUT_MS, max_body_bytes: DEFAULT_EMAIL_MAX_BODY_BYTES };

const emailAddress = z.string().refine(
  (v) => /^[^\s@<>]+@[^\s@<>]+$/.test(v) || /^[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>$/.test(v),
  (v) => ({ message: `invalid e-mail address ${describeValue(v)} (use ops@example.org or "Ops <ops@example.org>")` }),
);

const smtpUrl = urlWithScheme(['smtp', 'smtps'], 'smtp://HOST:587 or smtps://HOST:465');

/** The `email:` block of a receiver (DESIGN.md section 4: the key names are a contract). */
export function emailSchema({ file }: SchemaContext) {
  // Files are relative to the config file, as in Alertmanager, so a config dir is movable.
  const filePath = z.string().min(1).transform(file);
  return z
    .object({
      smtp_url: smtpUrl,
      from: emailAddress,
      // A single address is accepted too: `to: ops@example.org` is what people write first.
      to: z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(emailAddress).min(1)),
      subject: z.string().optional(),
      username: z.string().min(1).optional(),
      password: z.string().min(1).optional(),
      password_file: filePath.optional(),
      require_tls: z.boolean().optional(),
      tls: z
        .object({
          reject_unauthorized: z.boolean().default(true),
          ca_file: filePath.optional(),
        })
        .strict()
        .optional(),
      timeout: receiverTimeout,
      /** Most bytes of the text and HTML parts together (a size: `1MiB`); 0 = no limit. */
      max_body_bytes: withDefault(byteSize, DEFAULT_EMAIL_MAX_BODY_BYTES),
    })
    .strict()
    .superRefine((email, ctx) => {
      if (email.password !== undefined && email.password_file !== undefined) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['password_file'],
          params: { at: 'key' },
          message: 'set password or password_file, not both',
        });
      }
    });
}

export type EmailConfig = z.output<ReturnType<typeof emailSchema>>;
