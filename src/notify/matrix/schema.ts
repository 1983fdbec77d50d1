import { z } from 'zod';
import { httpUrl } from '../../lib/schema-types';
import { DEFAULT_RECEIVER_TIMEOUT_MS, receiverTimeout } from '../receiver-schema';

export const MATRIX_DEFAULTS = { timeout: DEFAULT_RECEIVER_TIMEOUT_MS };

/** The `matrix:` block of a receiver (DESIGN.md section 4: the key names are a contract). */
export const matrixSchema = z
  .object({
    /** The homeserver's client API base, as the account's client shows it (`https://matrix.example.org`). */
    homeserver: httpUrl,
    /** The room's id (`!abc:example.org`, Element: Room settings → Advanced), not an alias. */
    room_id: z.string().refine((v) => /^![^:\s]+:\S+$/.test(v), { message: 'use the room\'s id, such as "!abc:example.org" (Room settings → Advanced), not an alias' }),
    // The message never quotes the value: it is a secret.
    access_token: z.string().refine((v) => v.trim() !== '' && !/\s/.test(v), { message: 'must be an access token (no spaces), such as "${MX_TOKEN}"' }),
    timeout: receiverTimeout,
  })
  .strict();

export type MatrixConfig = z.output<typeof matrixSchema>;
