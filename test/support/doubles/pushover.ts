/**
 * Pushover's Message API, as its public docs describe it (pushover.net/api, "Message Priority",
 * "Receipts and Callbacks", "HTML Styling", "Application Limits"). Written from the docs, not
 * from spotwatch's code.
 *
 * - `POST /1/messages.json`, form- or JSON-encoded: `token` (the application's, 30 characters),
 *   `user` (a user or group key, 30 characters), `message` (required, at most 1,024 characters),
 *   `title` (at most 250), `url` (at most 512), `url_title` (at most 100), `priority` (-2 to 2),
 *   `html=1`. Priority 2 (emergency) requires `retry` (at least 30 seconds) and `expire` (at
 *   most 10,800 seconds), and its answer carries a `receipt`.
 * - 200 `{"status":1,"request":"..."}`; a 4xx `{"status":0,"errors":[...],"request":"..."}`
 *   (naming the bad field, e.g. `"user":"invalid"`) must not be retried; 429 when the
 *   application's monthly limit is used up, and 5xx, may be retried later. Every answer carries
 *   `X-Limit-App-Limit`, `X-Limit-App-Remaining` and `X-Limit-App-Reset` (a Unix time).
 * - `POST /1/receipts/{receipt}/cancel.json` with `token`: stops an emergency's repetitions.
 * - HTML mode allows only `<b>`, `<i>`, `<u>`, `<font color>` and `<a href>`.
 */
import { chars, ServiceDouble, type ServiceReply, type ServiceRequest } from './service';

export const PUSHOVER_TOKEN = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
export const PUSHOVER_USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';

export interface PushoverBody {
  token?: string;
  user?: string;
  message?: string;
  title?: string;
  url?: string;
  url_title?: string;
  priority?: number;
  retry?: number;
  expire?: number;
  html?: number;
}

export interface Emergency {
  message: PushoverBody;
  cancelled: boolean;
}

const ALLOWED_TAGS = new Set(['b', 'i', 'u', 'font', 'a']);

export class PushoverDouble extends ServiceDouble {
  /** Accepted messages, in order. */
  readonly messages: (PushoverBody & { message: string })[] = [];
  /** Emergencies by receipt. */
  readonly emergencies = new Map<string, Emergency>();
  limit = 10_000;
  remaining = 10_000;
  /** A Unix time (seconds): the first of next month, as Pushover resets its limits. */
  reset = 1_769_904_000;
  private requestIds = 0;

  get apiUrl(): string {
    return this.url;
  }

  /** The application's monthly limit used up: 429 until `reset`. */
  exhaust(): void {
    this.remaining = 0;
  }

  /** The receipts of emergencies still repeating. */
  repeating(): string[] {
    return [...this.emergencies].filter(([, e]) => !e.cancelled).map(([r]) => r);
  }

  protected answer(req: ServiceRequest): ServiceReply {
    const request = `req-${++this.requestIds}`;
    const headers = (): Record<string, string> => ({ 'x-limit-app-limit': String(this.limit), 'x-limit-app-remaining': String(this.remaining), 'x-limit-app-reset': String(this.reset) });
    const body = bodyOf(req);
    if (req.method !== 'POST') return { status: 404, body: { status: 0, errors: ['not found'], request } };
    const cancel = /^\/1\/receipts\/([A-Za-z0-9]+)\/cancel\.json$/.exec(req.path);
    if (cancel !== null) {
      if (body.token !== PUSHOVER_TOKEN) return { status: 400, body: { token: 'invalid', errors: ['application token is invalid'], status: 0, request } };
      const e = this.emergencies.get(cancel[1] ?? '');
      if (e === undefined) return { status: 404, body: { receipt: 'not found', errors: ['receipt not found; may be invalid or expired'], status: 0, request } };
      e.cancelled = true;
      return { status: 200, body: { status: 1, request } };
    }
    if (req.path !== '/1/messages.json') return { status: 404, body: { status: 0, errors: ['not found'], request } };
    if (this.remaining <= 0) return { status: 429, headers: headers(), body: { status: 0, errors: ['application has exceeded its monthly message limit'], request } };
    const errors = problems(body);
    if (errors.length > 0) return { status: 400, headers: headers(), body: { ...Object.fromEntries(errors.map(([f]) => [f, 'invalid'])), errors: errors.map(([, m]) => m), status: 0, request } };
    this.messages.push({ ...body, message: body.message ?? '' });
    this.remaining -= 1;
    if (Number(body.priority) === 2) {
      const receipt = `r${String(this.emergencies.size + 1).padStart(29, '0')}`;
      this.emergencies.set(receipt, { message: body, cancelled: false });
      return { status: 200, headers: headers(), body: { status: 1, request, receipt } };
    }
    return { status: 200, headers: headers(), body: { status: 1, request } };
  }
}

/** A JSON body, or a form (both are documented). */
function bodyOf(req: ServiceRequest): PushoverBody {
  if (typeof req.json === 'object' && req.json !== null) return req.json as PushoverBody;
  const form = Object.fromEntries(new URLSearchParams(req.raw));
  return { ...form, ...(form.priority !== undefined && { priority: Number(form.priority) }), ...(form.retry !== undefined && { retry: Number(form.retry) }), ...(form.expire !== undefined && { expire: Number(form.expire) }), ...(form.html !== undefined && { html: Number(form.html) }) } as PushoverBody;
}

function problems(b: PushoverBody): [field: string, message: string][] {
  const out: [string, string][] = [];
  if (b.token !== PUSHOVER_TOKEN) out.push(['token', 'application token is invalid']);
  if (b.user !== PUSHOVER_USER) out.push(['user', 'user identifier is not a valid user, group, or subscribed user key']);
  if (typeof b.message !== 'string' || b.message.trim() === '') out.push(['message', 'message cannot be blank']);
  else if (chars(b.message) > 1024) out.push(['message', 'message is too long (1024 characters at most)']);
  if (b.title !== undefined && chars(b.title) > 250) out.push(['title', 'title is too long (250 characters at most)']);
  if (b.url !== undefined && chars(b.url) > 512) out.push(['url', 'url is too long (512 characters at most)']);
  if (b.url_title !== undefined && chars(b.url_title) > 100) out.push(['url_title', 'url_title is too long (100 characters at most)']);
  const priority = b.priority ?? 0;
  if (![-2, -1, 0, 1, 2].includes(Number(priority))) out.push(['priority', 'priority is invalid']);
  if (Number(priority) === 2) {
    if (b.retry === undefined) out.push(['retry', 'retry must be supplied with priority=2']);
    else if (Number(b.retry) < 30) out.push(['retry', 'retry is invalid (30 seconds at least)']);
    if (b.expire === undefined) out.push(['expire', 'expire must be supplied with priority=2']);
    else if (Number(b.expire) > 10_800) out.push(['expire', 'expire is invalid (10800 seconds at most)']);
  }
  if (Number(b.html) === 1 && typeof b.message === 'string') {
    for (const [, tag] of b.message.matchAll(/<\/?([a-zA-Z]+)/g)) if (!ALLOWED_TAGS.has((tag ?? '').toLowerCase())) out.push(['message', `HTML tag <${tag}> is not supported`]);
  }
  return out;
}
