/**
 * A Microsoft Teams Workflows webhook ("Post to a channel when a webhook request is received"),
 * as Microsoft's public docs describe it (Teams "Create incoming webhooks with Workflows",
 * "Send Adaptive Cards using an Incoming Webhook", the Adaptive Cards schema and "Text features",
 * Teams' message size limits, Logic Apps' request trigger and its error body). Written from the
 * docs, not from spotwatch's code.
 *
 * - `POST /workflows/{id}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=...&sv=1.0&sig=...`:
 *   `202 Accepted`, no body. A wrong or missing `sig` is 401 with Logic Apps' error body
 *   (`{"error":{"code","message"}}`), an unknown workflow 404.
 * - The body: `{"type":"message","attachments":[{"contentType":"application/vnd.microsoft.card.adaptive",
 *   "content":{AdaptiveCard}}]}`; a card whose `type` is not `AdaptiveCard`, or whose `version`
 *   is above 1.5 (the highest Teams renders), or a MessageCard (the retired connector format),
 *   is refused with 400. A body over 28 KB is refused with 413.
 * - A 429 (`rateLimit`) carries `Retry-After` (seconds).
 * - `specials`: what Teams would render as markup in a posted card's TextBlocks and facts:
 *   an unescaped `**`/`*`/`_` emphasis, `~~` strikethrough, `` ` `` code, a `[text](url)` link,
 *   an autolink (`<http://...>`, `<a@b.c>`), a `<at>` mention, a list, heading or quote marker
 *   at the start, a `{{DATE(...)}}` or `{{TIME(...)}}` function. (TextBlock markdown in Teams
 *   renders no HTML: `<script>` shows as written.)
 */
import { ServiceDouble, type ServiceReply, type ServiceRequest } from './service';

export const TEAMS_WORKFLOW_ID = '0123456789abcdef0123456789abcdef';
export const TEAMS_SIG = 'Zk3xq_9VwLrT2bNcYp0aHs7uEo1iMdGf4jKl6QzXyW8';
export const TEAMS_LIMIT_BYTES = 28 * 1024;

export interface TeamsCardPost {
  type?: string;
  attachments?: { contentType?: string; contentUrl?: unknown; content?: TeamsCardContent }[];
}

export interface TeamsCardContent {
  $schema?: string;
  type?: string;
  version?: string;
  body?: { type?: string; text?: string; facts?: { title?: string; value?: string }[] }[];
  actions?: { type?: string; title?: string; url?: string }[];
}

export interface TeamsPosted {
  body: TeamsCardPost;
  card: TeamsCardContent;
  bytes: number;
  /** Markup Teams would have rendered in the card's texts. */
  specials: string[];
}

function logicAppsError(status: number, code: string, message: string): ServiceReply {
  return { status, body: { error: { code, message } } };
}

/** Markup in a text, escapes (`\x`, any ASCII punctuation after a backslash, as CommonMark has them) skipped. */
export function markupIn(text: string): string[] {
  const found: string[] = [];
  const plain = text.replace(/\\[!-/:-@[-`{-~]/g, '  ');
  if (/\*\*[^*]+\*\*|(^|\s)_[^_]+_|(^|\s)\*[^*\s][^*]*\*/.test(plain)) found.push('emphasis');
  if (/~~[^~]+~~/.test(plain)) found.push('strikethrough');
  if (/`[^`]+`/.test(plain)) found.push('code');
  if (/\[[^\]]*\]\([^)]*\)/.test(plain)) found.push('link');
  // CommonMark's autolinks: a scheme of 2 to 32 characters and a colon, or an e-mail address.
  if (/<[a-z][a-z0-9+.-]{1,31}:[^\s<>]*>|<[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*>/i.test(plain)) found.push('autolink');
  if (/<at>/i.test(plain)) found.push('mention');
  if (/^\s*(#{1,6}(\s|$)|[-+*](\s|$)|\d{1,9}[.)](\s|$)|>)/.test(plain)) found.push('block');
  if (/\{\{(DATE|TIME)\(/i.test(plain)) found.push('function');
  return found;
}

export class TeamsDouble extends ServiceDouble {
  readonly posted: TeamsPosted[] = [];

  /** The URL Workflows gives for the flow's trigger (its `sig` signs it). */
  get webhookUrl(): string {
    return `${this.url}/workflows/${TEAMS_WORKFLOW_ID}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${TEAMS_SIG}`;
  }

  rateLimit(seconds: number): void {
    this.forced.push({ headers: { 'retry-after': String(seconds) }, ...logicAppsError(429, 'WorkflowRequestsThrottled', 'The workflow is being throttled. Retry the request later.') });
  }

  protected answer(req: ServiceRequest): ServiceReply {
    const url = new URL(req.path, 'http://x');
    const m = /^\/workflows\/([^/]+)\/triggers\/manual\/paths\/invoke$/.exec(url.pathname);
    if (m === null || m[1] !== TEAMS_WORKFLOW_ID) return logicAppsError(404, 'WorkflowNotFound', `The workflow '${m?.[1] ?? ''}' could not be found.`);
    if (url.searchParams.get('sig') !== TEAMS_SIG) return logicAppsError(401, 'DirectApiInvalidAuthorizationSignature', `The provided authorization signature '${url.searchParams.get('sig') ?? ''}' is invalid.`);
    if (req.method !== 'POST') return logicAppsError(405, 'MethodNotAllowed', 'The HTTP method is not allowed.');
    const bytes = Buffer.byteLength(req.raw, 'utf8');
    if (bytes > TEAMS_LIMIT_BYTES) return logicAppsError(413, 'MessageSizeExceeded', 'The message is too large.');
    const body = req.json as TeamsCardPost | undefined;
    const attachment = body?.attachments?.[0];
    const card = attachment?.content;
    if (body?.type !== 'message' || body.attachments?.length !== 1 || attachment?.contentType !== 'application/vnd.microsoft.card.adaptive' || card?.type !== 'AdaptiveCard') {
      return logicAppsError(400, 'InvalidTemplate', 'The request body is not a message with an Adaptive Card attachment.');
    }
    if (card.version === undefined || Number(card.version) > 1.5) return logicAppsError(400, 'InvalidTemplate', `Adaptive Card version ${card.version ?? '(none)'} is not supported.`);
    const texts = (card.body ?? []).flatMap((e) => [e.text ?? '', ...(e.facts ?? []).flatMap((f) => [f.title ?? '', f.value ?? ''])]);
    this.posted.push({ body, card, bytes, specials: texts.flatMap(markupIn) });
    return { status: 202 };
  }
}
