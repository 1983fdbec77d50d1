/** Schema pieces every receiver kind shares. */
import { z } from 'zod';
import { positiveTimer, withDefault } from '../../lib/schema-types';

/** How long a receiver has to answer when its block does not say. */
export const DEFAULT_RECEIVER_TIMEOUT_MS = 10_000;

/** `timeout` of a receiver's block: a bounded, non-zero duration. */
export const receiverTimeout = withDefault(positiveTimer, DEFAULT_RECEIVER_TIMEOUT_MS);

/**
 * A URL that is itself a secret, as a chat service's webhook URL is (its path holds the token):
 * http or https, and no message ever quotes it, since messages reach logs and terminals.
 */
export const secretHttpUrl = z.string().superRefine((text, ctx) => {
  let protocol: string;
  try {
    protocol = new URL(text).protocol;
  } catch {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'invalid URL (not shown: it holds a token; use https://HOST/PATH as the service gives it)' });
    return;
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `unsupported URL scheme "${protocol.replace(/:$/, '')}" (use https, as the service gives it)` });
  }
});

/** A message template of a receiver's block (`text_template`, ...): `{{field}}` over notify/kit/chat-text.ts's fields. */
export const messageTemplate = z.string().min(1).optional();
