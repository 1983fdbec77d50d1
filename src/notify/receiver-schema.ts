/** Schema pieces every receiver kind shares. */
import { positiveTimer, withDefault } from '../lib/schema-types';

/** How long a receiver has to answer when its block does not say. */
export const DEFAULT_RECEIVER_TIMEOUT_MS = 10_000;

/** `timeout` of a receiver's block: a bounded, non-zero duration. */
export const receiverTimeout = withDefault(positiveTimer, DEFAULT_RECEIVER_TIMEOUT_MS);
