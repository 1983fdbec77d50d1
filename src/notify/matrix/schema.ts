import { z } from 'zod';
import { httpUrl } from '../../lib/schema-types';
import { DEFAULT_RECEIVER_TIMEOUT_MS, receiverTimeout } from '../kit/receiver-schema';

/**
 * The msgtype of the events: `text` (`m.text`), which the default push rules notify phones of, or
 * `notice` (`m.notice`), which the default override rule `.m.rule.suppress_notices` never pushes
 * (a quiet room, or one other bots read: bots ignore notices).
 */
export const MATRIX_MSGTYPES = ['text', 'notice'] as const;
export type MatrixMsgtype = (typeof MATRIX_MSGTYPES)[number];

export const MATRIX_DEFAULTS = { timeout: DEFAULT_RECEIVER_TIMEOUT_MS, msgtype: 'text' as MatrixMsgtype };

/**
 * A room id as the spec writes it: `!opaque:server` (room versions 1 to 11), or, from room
 * version 12 on (MSC4291), `!` and the create event's reference hash, 43 characters of URL-safe
 * unpadded base64 with no server part (`!31hneApxJ_1o-63DmFrpeqnkFfWppnzWso1JvH3ogLM`).
 */
const ROOM_ID = /^(![^:\s]+:\S+|![A-Za-z0-9_-]{43})$/;

const ROOM_ID_HINT = 'use the room\'s id, such as "!abc:example.org" or, in a room of version 12 or later, "!31hneApxJ_1o-63DmFrpeqnkFfWppnzWso1JvH3ogLM" (Room settings → Advanced)';

/** The `matrix:` block of a receiver (DESIGN.md section 4: the key names are a contract). */
export const matrixSchema = z
  .object({
    /** The homeserver's client API base, as the account's client shows it (`https://matrix.example.org`). */
    homeserver: httpUrl,
    /** The room's id (`!abc:example.org`, or a version 12 room's `!` and 43 characters; Element: Room settings → Advanced), not an alias. */
    room_id: z.string().superRefine((v, ctx) => {
      if (ROOM_ID.test(v)) return;
      const message = v.startsWith('#') ? `a room alias is not a room id: ${ROOM_ID_HINT}` : ROOM_ID_HINT;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message });
    }),
    // The message never quotes the value: it is a secret.
    access_token: z.string().refine((v) => v.trim() !== '' && !/\s/.test(v), { message: 'must be an access token (no spaces), such as "${MX_TOKEN}"' }),
    timeout: receiverTimeout,
    msgtype: z.enum(MATRIX_MSGTYPES).default(MATRIX_DEFAULTS.msgtype),
  })
  .strict();

export type MatrixConfig = z.output<typeof matrixSchema>;
