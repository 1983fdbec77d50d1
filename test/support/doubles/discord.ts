/**
 * Discord's Execute Webhook, as its public docs describe it (discord.com/developers/docs:
 * resources/webhook "Execute Webhook", resources/message "Embed Limits" and "Allowed Mentions",
 * topics/rate-limits, topics/opcodes-and-status-codes "JSON Error Codes"). Written from the docs,
 * not from spotwatch's code.
 *
 * - `POST /api/webhooks/{id}/{token}` (also under `/api/v10/`); `?wait=true` answers 200 with the
 *   message, otherwise 204. An unknown id is 404 `Unknown Webhook` (10015), a wrong token 401
 *   `Invalid Webhook Token` (50027); a body that is not JSON is 400 (50109).
 * - At least one of `content` or `embeds` (400 `Cannot send an empty message`, 50006). `content`
 *   at most 2,000 characters; at most 10 embeds; per embed: title 256, description 4,096, 25
 *   fields, field name 256 and value 1,024 (both required), footer 2,048, author name 256, all
 *   measured after trimming; all embeds together at most 6,000. Otherwise 400 `Invalid Form Body`
 *   (50035) with the `errors` tree.
 * - A 429 (`rateLimit`) has the documented body (`message`, `retry_after` in seconds, `global`)
 *   and headers (`Retry-After`, `X-RateLimit-*`).
 * - `pings`: what a delivered message would ping. Without `allowed_mentions`, mentions are parsed
 *   from `content` (`@everyone`, `@here`, `<@id>`, `<@!id>`, `<@&id>`, not escaped with a
 *   backslash); with `parse: []` nothing.
 *   Embeds never ping.
 */
import { chars, ServiceDouble, type ServiceReply, type ServiceRequest } from './service';

export const DISCORD_WEBHOOK_ID = '223704706495545344';
export const DISCORD_TOKEN = '3d89bb7572e0fb30d8128367b3b1b44fecd1726de135cbe28a41f8b2f777c372ba2939e72279b94526ff5d1bd4358d65cf11';

interface Embed {
  title?: string;
  description?: string;
  fields?: { name?: string; value?: string }[];
  footer?: { text?: string };
  author?: { name?: string };
}

export interface DiscordPost {
  content?: string;
  embeds?: Embed[];
  allowed_mentions?: { parse?: string[]; users?: string[]; roles?: string[] };
}

export interface DiscordMessage {
  body: DiscordPost;
  /** The mentions that would have pinged someone. */
  pings: string[];
}

const LIMITS = { content: 2000, embeds: 10, title: 256, description: 4096, fields: 25, fieldName: 256, fieldValue: 1024, footer: 2048, author: 256, total: 6000 };

export class DiscordDouble extends ServiceDouble {
  /** Messages Discord saved and posted. */
  readonly messages: DiscordMessage[] = [];

  /** The webhook URL Discord gives for the channel (`/api/webhooks/{id}/{token}`). */
  get webhookUrl(): string {
    return `${this.url}/api/webhooks/${DISCORD_WEBHOOK_ID}/${DISCORD_TOKEN}`;
  }

  /** The next request is rate limited, as the docs' example: `retry_after` seconds in the body, `Retry-After` rounded up. */
  rateLimit(retryAfter: number, global = false): void {
    this.forced.push({
      status: 429,
      headers: {
        'retry-after': String(Math.ceil(retryAfter)),
        'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0',
        'x-ratelimit-reset-after': String(retryAfter), 'x-ratelimit-bucket': 'abcd1234',
        'x-ratelimit-scope': global ? 'global' : 'user',
        ...(global && { 'x-ratelimit-global': 'true' }),
      },
      body: { message: 'You are being rate limited.', retry_after: retryAfter, global },
    });
  }

  protected answer(req: ServiceRequest): ServiceReply {
    const m = /^\/api(?:\/v\d+)?\/webhooks\/(\d+)\/([^/?]+)(?:\?(.*))?$/.exec(req.path);
    if (req.method !== 'POST') return error(405, '405: Method Not Allowed', 0);
    if (m === null || m[1] !== DISCORD_WEBHOOK_ID) return error(404, 'Unknown Webhook', 10015);
    if (m[2] !== DISCORD_TOKEN) return error(401, 'Invalid Webhook Token', 50027);
    if (typeof req.json !== 'object' || req.json === null) return error(400, 'The request body contains invalid JSON.', 50109);
    const body = req.json as DiscordPost;
    const embeds = body.embeds ?? [];
    if ((body.content ?? '').trim() === '' && embeds.length === 0) return error(400, 'Cannot send an empty message', 50006);
    const problems = validate(body);
    if (Object.keys(problems).length > 0) return { status: 400, body: { code: 50035, errors: problems, message: 'Invalid Form Body' } };
    this.messages.push({ body, pings: pings(body) });
    const wait = new URLSearchParams(m[3] ?? '').get('wait') === 'true';
    return wait ? { status: 200, body: { id: String(this.messages.length), type: 0, content: body.content ?? '', embeds, webhook_id: DISCORD_WEBHOOK_ID } } : { status: 204 };
  }
}

function error(status: number, message: string, code: number): ServiceReply {
  return { status, body: { message, code } };
}

type ErrorTree = { [key: string]: ErrorTree | { code: string; message: string }[] };

function validate(body: DiscordPost): ErrorTree {
  const errors: ErrorTree = {};
  const tooLong = (max: number) => [{ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` }];
  const required = [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }];
  if (chars(body.content ?? '') > LIMITS.content) errors.content = { _errors: tooLong(LIMITS.content) };
  const embeds = body.embeds ?? [];
  if (embeds.length > LIMITS.embeds) errors.embeds = { _errors: tooLong(LIMITS.embeds) };
  const embedErrors: ErrorTree = {};
  let total = 0;
  embeds.forEach((e, i) => {
    const at: ErrorTree = {};
    const measure = (text: string | undefined, max: number, key: string, into: ErrorTree): void => {
      const n = chars((text ?? '').trim());
      total += n;
      if (n > max) into[key] = { _errors: tooLong(max) };
    };
    measure(e.title, LIMITS.title, 'title', at);
    measure(e.description, LIMITS.description, 'description', at);
    const fieldErrors: ErrorTree = {};
    (e.fields ?? []).forEach((f, j) => {
      const fe: ErrorTree = {};
      if ((f.name ?? '').trim() === '') fe.name = { _errors: required };
      if ((f.value ?? '').trim() === '') fe.value = { _errors: required };
      measure(f.name, LIMITS.fieldName, 'name', fe);
      measure(f.value, LIMITS.fieldValue, 'value', fe);
      if (Object.keys(fe).length > 0) fieldErrors[String(j)] = fe;
    });
    if ((e.fields ?? []).length > LIMITS.fields) at.fields = { _errors: tooLong(LIMITS.fields) };
    else if (Object.keys(fieldErrors).length > 0) at.fields = fieldErrors;
    const footer: ErrorTree = {};
    measure(e.footer?.text, LIMITS.footer, 'text', footer);
    if (Object.keys(footer).length > 0) at.footer = footer;
    const author: ErrorTree = {};
    measure(e.author?.name, LIMITS.author, 'name', author);
    if (Object.keys(author).length > 0) at.author = author;
    if (Object.keys(at).length > 0) embedErrors[String(i)] = at;
  });
  if (Object.keys(embedErrors).length > 0) errors.embeds = embedErrors;
  else if (total > LIMITS.total) errors.embeds = { _errors: [{ code: 'MAX_EMBED_SIZE_EXCEEDED', message: `Embed size exceeds maximum size of ${LIMITS.total}` }] };
  return errors;
}

/** The mentions in `content` that would ping, given `allowed_mentions` (absent: all parsed). */
function pings(body: DiscordPost): string[] {
  const parse = body.allowed_mentions === undefined ? ['everyone', 'users', 'roles'] : (body.allowed_mentions.parse ?? []);
  const found: string[] = [];
  const content = body.content ?? '';
  if (parse.includes('everyone')) found.push(...(content.match(/@(everyone|here)/g) ?? []));
  // A backslash before a mention is Discord's escape: it shows as text.
  if (parse.includes('users')) found.push(...(content.match(/(?<!\\)<@!?\d+>/g) ?? []));
  if (parse.includes('roles')) found.push(...(content.match(/(?<!\\)<@&\d+>/g) ?? []));
  return found;
}
