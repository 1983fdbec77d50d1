import { z } from 'zod';
import { httpUrl, positiveTimer, withDefault } from '../../lib/schema-types';
import { DEFAULT_RECEIVER_TIMEOUT_MS, receiverTimeout } from '../receiver-schema';

/** Alertmanager forgets an alert that is not re-sent within its resolve_timeout (5m by default). */
export const DEFAULT_ALERTMANAGER_RESEND_MS = 60_000;

export const ALERTMANAGER_DEFAULTS = { timeout: DEFAULT_RECEIVER_TIMEOUT_MS, resend_interval: DEFAULT_ALERTMANAGER_RESEND_MS };

/** The `alertmanager:` block of a receiver. */
export const alertmanagerSchema = z
  .object({
    /** Alertmanager's base URL, e.g. http://127.0.0.1:9093. */
    url: httpUrl,
    timeout: receiverTimeout,
    /** Firing alerts are re-sent this often, or Alertmanager resolves them on its own. */
    resend_interval: withDefault(positiveTimer, DEFAULT_ALERTMANAGER_RESEND_MS),
  })
  .strict();

export type AlertmanagerConfig = z.output<typeof alertmanagerSchema>;
