import { z } from 'zod';
import { httpUrl, withDefault } from '../../lib/schema-types';
import { DEFAULT_RECEIVER_TIMEOUT_MS, receiverTimeout } from '../kit/receiver-schema';

/** ntfy's public server (DESIGN.md section 4); a self-hosted one is its base URL. */
export const DEFAULT_NTFY_URL = 'https://ntfy.sh';

export const NTFY_DEFAULTS = { url: DEFAULT_NTFY_URL, timeout: DEFAULT_RECEIVER_TIMEOUT_MS };

/** ntfy's topic names: 1 to 64 of letters, digits, `-` and `_`. */
const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
/** Names ntfy keeps for its own pages and API (its DefaultDisallowedTopics): a publish to one is refused. */
export const NTFY_RESERVED_TOPICS: readonly string[] = ['docs', 'static', 'file', 'app', 'metrics', 'account', 'settings', 'signup', 'login', 'v1'];

/**
 * The `ntfy:` block of a receiver (DESIGN.md section 4: `url`, `topic`, `token` are a contract).
 * On a server without accounts the topic is the only thing that keeps others out, so it is a
 * secret too; `token` (an access token, `tk_...`) or `username` and `password` for a protected one.
 */
export const ntfySchema = z
  .object({
    url: withDefault(httpUrl, DEFAULT_NTFY_URL),
    topic: z.string()
      .refine((t) => TOPIC.test(t), { message: 'a topic is 1 to 64 letters, digits, "-" or "_" (not shown: it may be the only secret)' })
      .refine((t) => !NTFY_RESERVED_TOPICS.includes(t), { message: `a topic may not be one of ntfy's reserved names (${NTFY_RESERVED_TOPICS.join(', ')})` }),
    token: z.string().min(1).optional(),
    username: z.string().min(1).optional(),
    password: z.string().min(1).optional(),
    timeout: receiverTimeout,
  })
  .strict()
  .superRefine((c, ctx) => {
    const url = new URL(c.url);
    if (url.username !== '' || url.password !== '') {
      // Requests go to the URL's origin: a user and password in it would be dropped, not sent.
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['url'], message: 'the URL must not carry a user and password (not shown): put the user and password in username/password (or token)' });
    }
    if ((c.username === undefined) !== (c.password === undefined)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [c.username === undefined ? 'username' : 'password'], message: 'username and password go together' });
    }
    if (c.token !== undefined && c.username !== undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['token'], message: 'either token or username and password, not both' });
    }
  });

export type NtfyConfig = z.output<typeof ntfySchema>;
