import { createHmac } from 'node:crypto';
import { render } from '../../lib/template';
import { keepAlerts, mostThatFit, partsWithin, utf8Bytes } from '../kit/parts';
import { postNotification, type HttpDeps } from '../kit/http-post';
import type { Delivery, Notification, Notifier } from '../notifier';
import { alertLine, notificationFields } from '../kit/text';

export interface WebhookOptions {
  name: string;
  url: string;
  timeoutMs: number;
  /** When set, `X-Spotwatch-Signature: sha256=<hex HMAC-SHA256 of the raw body>`. */
  secret?: string | undefined;
  headers?: Record<string, string> | undefined;
  /** Most alerts in one body (0: all); the rest are counted in truncatedAlerts. */
  maxAlerts?: number | undefined;
  /** Most bytes in one body (0: no limit): whole alerts are dropped from the end and counted in truncatedAlerts. */
  maxBodyBytes?: number | undefined;
  /**
   * A body of your own instead of the version 4 body: a template over the notification's fields
   * (see notify/kit/text.ts), every value JSON-escaped so it is safe inside a JSON string, plus
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

/**
 * The version 4 body within `maxBytes`: its alerts measured one by one (a storm's body is
 * stringified once more, not once per try). The count in truncatedAlerts is taken at its
 * largest, so the body sent is at most what was measured.
 */
export function v4Within(n: Notification, maxBytes: number): Notification {
  const base = utf8Bytes(JSON.stringify({ ...n, alerts: [], truncatedAlerts: n.truncatedAlerts + n.alerts.length }));
  const sizes = n.alerts.map((a, i) => utf8Bytes(JSON.stringify(a)) + (i === 0 ? 0 : 1));
  return keepAlerts(n, partsWithin(sizes, maxBytes - base));
}

/** The templated body within `maxBytes`: the template is the user's, so the body is rendered to be measured. */
function templatedWithin(template: string, n: Notification, maxBytes: number): Notification {
  return keepAlerts(n, mostThatFit(n.alerts.length, (k) => utf8Bytes(templatedBody(template, keepAlerts(n, k))) <= maxBytes));
}

/** The `webhook` receiver: POSTs the Alertmanager version 4 body. */
export function webhookNotifier(options: WebhookOptions, http: HttpDeps): Notifier {
  const url = new URL(options.url);
  return {
    name: options.name,
    async send({ notification, idempotencyKey }: Delivery, signal?: AbortSignal, notificationJson?: string) {
      const max = options.maxAlerts ?? 0;
      const maxBytes = options.maxBodyBytes ?? 0;
      const template = options.bodyTemplate;
      const render = (n: Notification): string =>
        // The body is the notification as the outbox already holds it, when it has it at hand.
        template !== undefined ? templatedBody(template, n) : n === notification && notificationJson !== undefined ? notificationJson : JSON.stringify(n);
      let body = max > 0 ? keepAlerts(notification, max) : notification;
      let raw = render(body);
      if (maxBytes > 0 && utf8Bytes(raw) > maxBytes) {
        body = template !== undefined ? templatedWithin(template, body, maxBytes) : v4Within(body, maxBytes);
        raw = render(body);
      }
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
