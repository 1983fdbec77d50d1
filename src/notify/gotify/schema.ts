import { z } from 'zod';
import { httpUrl } from '../../lib/schema-types';
import { DEFAULT_RECEIVER_TIMEOUT_MS, receiverTimeout } from '../kit/receiver-schema';

export const GOTIFY_DEFAULTS = { timeout: DEFAULT_RECEIVER_TIMEOUT_MS, markdown: true };

/**
 * The `gotify:` block of a receiver (DESIGN.md section 4: `url` and `token`). The token goes in
 * the `X-Gotify-Key` header, never in the URL: a `?token=` query would reach proxies' access logs,
 * so a URL that carries one is refused, without quoting it.
 */
export const gotifySchema = z
  .object({
    /** The Gotify server's base URL (`https://gotify.example.org`, or `https://host/gotify` behind a proxy). */
    url: z.string().superRefine((text, ctx) => {
      // Checked first, and alone: httpUrl's own messages quote the URL, token and all.
      if (/[?&]token=/i.test(text)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'the URL must not carry the token (?token=..., not shown): put it in `token`, which is sent in the X-Gotify-Key header' });
        return;
      }
      for (const issue of httpUrl.safeParse(text).error?.issues ?? []) ctx.addIssue({ code: z.ZodIssueCode.custom, message: issue.message });
    }),
    /** An application's token (Gotify: Apps → Create Application): a secret. */
    token: z.string().min(1),
    timeout: receiverTimeout,
    /** Send the message as `text/markdown` (Gotify's clients render it), upstream text escaped; false: plain text. */
    markdown: z.boolean().default(GOTIFY_DEFAULTS.markdown),
  })
  .strict();

export type GotifyConfig = z.output<typeof gotifySchema>;
