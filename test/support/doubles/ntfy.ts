/**
 * An ntfy server, as its public docs describe publishing (docs.ntfy.sh "Publishing": "Publish as
 * JSON", "Message priority", "Tags & emojis", "Click action", "Markdown formatting",
 * "Authentication", "Limitations"; errors as the server words them). Written from the docs, not
 * from spotwatch's code.
 *
 * - JSON publishing: `POST` (or `PUT`) to the server's root with a JSON object: `topic`
 *   (required; 1 to 64 of `[-_A-Za-z0-9]`), `message`, `title`, `tags` (an array of strings; an
 *   emoji shortcode is shown before the title), `priority` (1 min, 2 low, 3 default, 4 high,
 *   5 max/urgent), `click` (a URL), `markdown` (true renders the message as Markdown).
 *   A topic of the server's own names (`docs`, `static`, `file`, `app`, `metrics`, `account`,
 *   `settings`, `signup`, `login`, `v1`) is refused: 400 `topic name is not allowed` (40010).
 *   Answers 200 with the message as JSON (`id`, `time`, `event: "message"`, `topic`, ...).
 * - A message of the message size limit (4,096 bytes by default) or more is not shown as a
 *   notification's text (the server peeks that many bytes, and a full read is too long): it
 *   becomes an attachment (`attachment.txt`), the message saying so, or, on a server without
 *   attachments (a self-hosted one's default), 400 `attachments not allowed` (40014). A shown
 *   message is trimmed of surrounding whitespace; an empty one is `triggered`.
 * - A JSON body is read up to twice the message size limit (8,192 bytes): one that fills it is
 *   refused, 413 `JSON body too large` (41303). The title has no limit of its own.
 * - Access control: `Authorization: Bearer <access token>` (`tk_...`) or `Basic
 *   base64(user:password)`. Wrong credentials: 401 `unauthorized` (40101); none, or a user who
 *   may not write the topic: 403 `forbidden` (40301).
 * - Errors are JSON: `{"code", "http", "error", "link"}`. 429s carry no `Retry-After`: `limit
 *   reached: too many requests` (42901) when a visitor's request bucket is empty (a burst of 60,
 *   then one more every 5 seconds: visitor-request-limit-burst and -replenish), `limit reached:
 *   daily message quota reached` (42908) once its messages of the day are used up (ntfy.sh's free
 *   tier: 250), `limit reached: too many auth failures` (42909).
 */
import { ServiceDouble, type ServiceReply, type ServiceRequest } from './service';

export const NTFY_TOKEN = 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2';
export const NTFY_USER = 'phil';
export const NTFY_PASSWORD = 'mypass';
export const NTFY_TOPIC = 'desk-alerts_7f3k';

const MESSAGE_LIMIT = 4096;
const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
/** The server's own names (DefaultDisallowedTopics): not topics. */
const RESERVED_TOPICS = ['docs', 'static', 'file', 'app', 'metrics', 'account', 'settings', 'signup', 'login', 'v1'];

export interface NtfyPublish {
  topic?: unknown;
  message?: unknown;
  title?: unknown;
  tags?: unknown;
  priority?: unknown;
  click?: unknown;
  markdown?: unknown;
  [other: string]: unknown;
}

export interface NtfyNotification {
  topic: string;
  /** The shown text; `You received a file: attachment.txt` when the body went to an attachment. */
  message: string;
  title?: string;
  tags?: string[];
  priority: number;
  click?: string;
  /** Whether the text is rendered as Markdown. */
  markdown: boolean;
  /** The body, when it was too large to be the notification's text. */
  attachment?: string;
  /** Who published (`token`, `phil`), or `anonymous`. */
  by: string;
}

export class NtfyDouble extends ServiceDouble {
  /** Messages published, in order. */
  readonly notifications: NtfyNotification[] = [];
  /** Whether the topic is protected: then only the token or the user may write it. */
  protect = true;
  /** Whether the server keeps attachments (ntfy.sh does; a self-hosted one only with an attachment cache). */
  attachments = true;
  /** The visitor's request bucket: this many requests at once... */
  burst = 60;
  /** ...then one more every this many milliseconds (5 s; a test makes it fast). */
  refillMs = 5_000;
  /** Messages the visitor may publish a day (ntfy.sh's free tier: 250); unset: no quota. */
  dailyQuota: number | undefined;
  private tokens = this.burst;
  private filledAt = Date.now();

  /** The next publish is refused: the visitor's request limit (no Retry-After, as the server). */
  rateLimit(): void {
    this.forced.push({ status: 429, body: TOO_MANY_REQUESTS });
  }

  protected answer(req: ServiceRequest): ServiceReply {
    if (req.method !== 'POST' && req.method !== 'PUT') return { status: 405, body: error(405, 40501, 'method not allowed') };
    if (req.path !== '/' && req.path !== '/ntfy/') return { status: 404, body: error(404, 40401, 'page not found') };
    if (Buffer.byteLength(req.raw, 'utf8') >= MESSAGE_LIMIT * 2) return { status: 413, body: error(413, 41303, 'JSON body too large') };
    if (!this.take()) return { status: 429, body: TOO_MANY_REQUESTS };
    const body = req.json;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return { status: 400, body: error(400, 40017, 'invalid request: request body must be message JSON') };
    const m = body as NtfyPublish;
    if (typeof m.topic !== 'string' || !TOPIC.test(m.topic)) return { status: 400, body: error(400, 40009, 'invalid request: topic invalid') };
    if (RESERVED_TOPICS.includes(m.topic)) return { status: 400, body: error(400, 40010, 'invalid request: topic name is not allowed') };
    if (m.priority !== undefined && !(typeof m.priority === 'number' && Number.isInteger(m.priority) && m.priority >= 1 && m.priority <= 5)) {
      return { status: 400, body: error(400, 40007, 'invalid request: priority invalid') };
    }
    if (m.tags !== undefined && !(Array.isArray(m.tags) && m.tags.every((t) => typeof t === 'string'))) return { status: 400, body: error(400, 40000, 'invalid request: tags invalid') };
    const who = this.who(req.headers.authorization);
    if (who === 'wrong') return { status: 401, body: error(401, 40101, 'unauthorized', 'https://ntfy.sh/docs/publish/#authentication') };
    if (this.protect && who === 'anonymous') return { status: 403, body: error(403, 40301, 'forbidden', 'https://ntfy.sh/docs/publish/#authentication') };
    if (this.dailyQuota !== undefined && this.notifications.length >= this.dailyQuota) {
      return { status: 429, body: error(429, 42908, 'limit reached: daily message quota reached', 'https://ntfy.sh/docs/publish/#limitations') };
    }
    const raw = typeof m.message === 'string' ? m.message : '';
    const tooLarge = Buffer.byteLength(raw, 'utf8') >= MESSAGE_LIMIT;
    if (tooLarge && !this.attachments) return { status: 400, body: error(400, 40014, 'invalid request: attachments not allowed') };
    const text = tooLarge ? raw : trimSpace(raw) === '' ? 'triggered' : trimSpace(raw);
    const n: NtfyNotification = {
      topic: m.topic,
      message: tooLarge ? 'You received a file: attachment.txt' : text,
      ...(typeof m.title === 'string' && { title: m.title }),
      ...(Array.isArray(m.tags) && { tags: m.tags as string[] }),
      priority: typeof m.priority === 'number' ? m.priority : 3,
      ...(typeof m.click === 'string' && { click: m.click }),
      markdown: m.markdown === true,
      ...(tooLarge && { attachment: text }),
      by: who,
    };
    this.notifications.push(n);
    return { status: 200, body: { id: `m${this.notifications.length}`, time: 1767323045, expires: 1767366245, event: 'message', topic: n.topic, title: n.title, message: n.message, priority: n.priority, tags: n.tags, click: n.click } };
  }

  /** A request from the bucket, refilled for the time gone by (golang.org/x/time/rate, as the server). */
  private take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + (now - this.filledAt) / this.refillMs);
    this.filledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private who(authorization: string | undefined): string {
    if (authorization === undefined) return 'anonymous';
    if (authorization === `Bearer ${NTFY_TOKEN}`) return 'token';
    if (authorization === `Basic ${Buffer.from(`${NTFY_USER}:${NTFY_PASSWORD}`).toString('base64')}`) return NTFY_USER;
    return 'wrong';
  }
}

const TOO_MANY_REQUESTS = error(429, 42901, 'limit reached: too many requests', 'https://ntfy.sh/docs/publish/#limitations');

/** Go's strings.TrimSpace: Unicode white space (unicode.IsSpace) off both ends. */
function trimSpace(text: string): string {
  return text.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g, '');
}

function error(http: number, code: number, text: string, link?: string): object {
  return { code, http, error: text, ...(link !== undefined && { link }) };
}
