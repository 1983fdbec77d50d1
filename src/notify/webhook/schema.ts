import { z } from 'zod';
import { byteSize, headerMap, httpUrl, withDefault } from '../../lib/schema-types';
import { DEFAULT_RECEIVER_TIMEOUT_MS, receiverTimeout } from '../kit/receiver-schema';

/** 0 = no limit, as Alertmanager's webhook_config.max_alerts. */
export const DEFAULT_WEBHOOK_MAX_ALERTS = 0;

/**
 * 1 MiB: what an nginx in front of a receiver takes by default (client_max_body_size), about
 * 2,500 alerts; 0 = no limit. Whole alerts past it are dropped and counted in truncatedAlerts.
 */
export const DEFAULT_WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

export const WEBHOOK_DEFAULTS = { timeout: DEFAULT_RECEIVER_TIMEOUT_MS, max_alerts: DEFAULT_WEBHOOK_MAX_ALERTS, max_body_bytes: DEFAULT_WEBHOOK_MAX_BODY_BYTES };

/** The `webhook:` block of a receiver (DESIGN.md section 4: the key names are a contract). */
export const webhookSchema = z
  .object({
    url: httpUrl,
    timeout: receiverTimeout,
    /** HMAC-SHA256 key for the body signature. */
    secret: z.string().min(1).optional(),
    headers: headerMap.optional(),
    max_alerts: z.number().int().min(0).default(DEFAULT_WEBHOOK_MAX_ALERTS),
    /** Most bytes in one body (a size: `1MiB`, `512KiB`); 0 = no limit. */
    max_body_bytes: withDefault(byteSize, DEFAULT_WEBHOOK_MAX_BODY_BYTES),
    /** A body of your own instead of the version 4 body: a template over the notification's fields (values JSON-escaped). */
    body_template: z.string().min(1).optional(),
    /** Content-Type of a templated body. */
    content_type: z.string().regex(/^[\w.+-]+\/[\w.+-]+(;.*)?$/, 'use a media type such as application/json').optional(),
  })
  .strict();

export type WebhookConfig = z.output<typeof webhookSchema>;
