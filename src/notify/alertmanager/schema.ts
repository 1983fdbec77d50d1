import { z } from 'zod';
import { byteSize, httpUrl, positiveTimer, withDefault } from '../../lib/schema-types';
import { DEFAULT_RECEIVER_TIMEOUT_MS, receiverTimeout } from '../kit/receiver-schema';

/** Alertmanager forgets an alert that is not re-sent within its resolve_timeout (5m by default). */
export const DEFAULT_ALERTMANAGER_RESEND_MS = 60_000;

/**
 * 1 MiB: Alertmanager's API sets no bound on a body, but a reverse proxy in front of it commonly
 * does (nginx's client_max_body_size is 1 MiB by default); 0 = no bound. The alerts are split into
 * several posts under it, none left out (Alertmanager takes any number of posts).
 */
export const DEFAULT_ALERTMANAGER_MAX_BODY_BYTES = 1024 * 1024;

export const ALERTMANAGER_DEFAULTS = { timeout: DEFAULT_RECEIVER_TIMEOUT_MS, resend_interval: DEFAULT_ALERTMANAGER_RESEND_MS, max_body_bytes: DEFAULT_ALERTMANAGER_MAX_BODY_BYTES };

/** The `alertmanager:` block of a receiver. */
export const alertmanagerSchema = z
  .object({
    /** Alertmanager's base URL, e.g. http://127.0.0.1:9093. */
    url: httpUrl,
    timeout: receiverTimeout,
    /** Firing alerts are re-sent this often, or Alertmanager resolves them on its own. */
    resend_interval: withDefault(positiveTimer, DEFAULT_ALERTMANAGER_RESEND_MS),
    /** Most bytes in one post (a size: `1MiB`, `512KiB`); more alerts go in more posts. 0 = no bound. */
    max_body_bytes: withDefault(byteSize, DEFAULT_ALERTMANAGER_MAX_BODY_BYTES),
  })
  .strict();

export type AlertmanagerConfig = z.output<typeof alertmanagerSchema>;
