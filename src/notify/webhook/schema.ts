import { z } from 'zod';
import { headerMap, httpUrl } from '../../lib/schema-types';
import { DEFAULT_RECEIVER_TIMEOUT_MS, receiverTimeout } from '../receiver-schema';

/** 0 = no limit, as Alertmanager's webhook_config.max_alerts. */
export const DEFAULT_WEBHOOK_MAX_ALERTS = 0;

export const WEBHOOK_DEFAULTS = { timeout: DEFAULT_RECEIVER_TIMEOUT_MS, max_alerts: DEFAULT_WEBHOOK_MAX_ALERTS };

/** The `webhook:` block of a receiver (DESIGN.md section 4: the key names are a contract). */
export const webhookSchema = z
  .object({
    url: httpUrl,
    timeout: receiverTimeout,
    /** HMAC-SHA256 key for the body signature. */
    secret: z.string().min(1).optional(),
    headers: headerMap.optional(),
    max_alerts: z.number().int().min(0).default(DEFAULT_WEBHOOK_MAX_ALERTS),
    /** A body of your own instead of the version 4 body: a template over the notification's fields (values JSON-escaped). */
    body_template: z.string().min(1).optional(),
    /** Content-Type of a templated body. */
    content_type: z.string().regex(/^[\w.+-]+\/[\w.+-]+(;.*)?$/, 'use a media type such as application/json').optional(),
  })
  .strict();

export type WebhookConfig = z.output<typeof webhookSchema>;
