import { createHmac } from 'node:crypto';
import { render } from '../../lib/template';
import { postNotification, type HttpDeps } from '../http-post';
import type { Delivery, Notification, Notifier } from '../notifier';
import { alertLine, notificationFields } from '../text';

export interface WebhookOptions {
  name: string;
  url: string;
  timeoutMs: number;
  /** When set, `X-Spotwatch-Signature: sha256=<hex HMAC-SHA256 of the raw body>`. */
  secret?: string | undefined;
  headers?: Record<string, string> | undefined;
  /** Most alerts in one body (0: all); the rest are counted in truncatedAlerts. */
  maxAlerts?: number | undefined;
  /**
   * A body of your own instead of the version 4 body: a template over the notification's fields
   * (see notify/text.ts), every value JSON-escaped so it is safe inside a JSON string, plus
   * `{{alerts_text}}` (one line per alert) and `{{alerts_json}}` (the alerts as a JSON array).
   */
  bodyTemplate?: string | undefined;
  contentType?: string | undefined;
}

/** The templated body: values escaped for a JSON string, `alerts_json` inserted as JSON. */
export function templatedBody(template: string, n: Notification): string {
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(notificationFields(n))) fields[k] = jsonEscape(String(v ?? ''));
  fields.alerts_text = jsonEscape(n.alerts.map(alertLine).join('\n'));
  const json = JSON.stringify(n.alerts);
  return render(template, { ...fields, alerts_json: '\u0000ALERTS\u0000' }).split('\u0000ALERTS\u0000').join(json);
}

function jsonEscape(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

export const SIGNATURE_HEADER = 'x-spotwatch-signature';
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** Signature of a raw body, as the receiving end should compute it to verify. */
export function sign(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The `webhook` receiver: POSTs the Alertmanager version 4 body. */
export function webhookNotifier(options: WebhookOptions, http: HttpDeps): Notifier {
  const url = new URL(options.url);
  return {
    name: options.name,
    async send({ notification, idempotencyKey }: Delivery, signal?: AbortSignal, notificationJson?: string) {
      const max = options.maxAlerts ?? 0;
      const body =
        max > 0 && notification.alerts.length > max
          ? { ...notification, alerts: notification.alerts.slice(0, max), truncatedAlerts: notification.truncatedAlerts + notification.alerts.length - max }
          : notification;
      // The body is the notification as the outbox already holds it, when it has it at hand.
      const raw = options.bodyTemplate !== undefined ? templatedBody(options.bodyTemplate, body) : body === notification && notificationJson !== undefined ? notificationJson : JSON.stringify(body);
      const headers: Record<string, string> = {
        ...options.headers,
        'content-type': options.contentType ?? 'application/json',
        'user-agent': 'spotwatch',
        [IDEMPOTENCY_HEADER]: idempotencyKey,
      };
      if (options.secret) headers[SIGNATURE_HEADER] = sign(options.secret, raw);
      await postNotification(http, 'webhook', {
        url,
        headers,
        // Configured headers may hold credentials: not sent on to another host.
        privateHeaders: Object.keys(options.headers ?? {}),
        body: raw,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      }, options.timeoutMs, signal);
    },
  };
}
