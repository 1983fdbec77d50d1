/**
 * A Slack incoming webhook, as Slack's public docs describe it ("Sending messages using incoming
 * webhooks" and its "Handling errors" table, the 2016 changelog "Improving error conditions for
 * Incoming Webhooks", Block Kit's block reference, "Formatting text": escaping, and "Rate limits").
 * Written from the docs, not from spotwatch's code.
 *
 * - `POST /services/{team}/{bot}/{token}`: `200 ok` (plain text). Errors are plain-text words:
 *   400 `invalid_payload` (not JSON), 400 `no_text` (neither `text` nor `blocks`), 400
 *   `invalid_blocks` (a block over its limits), 403 `invalid_token`, 403 `action_prohibited`,
 *   404 `no_service` (no such webhook, or disabled), 404 `no_team`, 404 `channel_not_found`,
 *   410 `channel_is_archived`, 500 `rollup_error`.
 * - Blocks: at most 50; a header's `plain_text` at most 150 characters; a section's text at
 *   most 3,000; a context block at most 10 elements, each text at most 3,000.
 * - A 429 (`rateLimit`) carries `Retry-After` (seconds).
 * - `specials`: what Slack would read as a link, a mention or a command in a delivered message's
 *   mrkdwn (`<http://x|y>`, `<@U123>`, `<#C123>`, `<!channel>`, `<!here>`...): in mrkdwn text
 *   and in the top-level `text`; `plain_text` is shown as it is.
 */
import { chars, ServiceDouble, type ServiceReply, type ServiceRequest } from './service';

export const SLACK_PATH = '/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';

interface TextObject {
  type?: string;
  text?: string;
}

interface Block {
  type?: string;
  text?: TextObject;
  elements?: TextObject[];
  fields?: TextObject[];
}

export interface SlackPost {
  text?: string;
  blocks?: Block[];
}

export interface SlackMessage {
  body: SlackPost;
  /** Link, mention and command forms (`<...>`) Slack would act on. */
  specials: string[];
}

/** What the webhook's channel is like; anything but `ok` is its documented error. */
export type SlackHookState = 'ok' | 'no_service' | 'channel_not_found' | 'channel_is_archived' | 'action_prohibited' | 'invalid_token' | 'no_team';

const STATUS: Readonly<Record<Exclude<SlackHookState, 'ok'>, number>> = {
  invalid_token: 403, action_prohibited: 403, no_service: 404, no_team: 404, channel_not_found: 404, channel_is_archived: 410,
};

const LIMITS = { blocks: 50, header: 150, section: 3000, contextElements: 10, context: 3000 };

export class SlackDouble extends ServiceDouble {
  readonly messages: SlackMessage[] = [];
  state: SlackHookState = 'ok';

  /** The URL Slack gives for the webhook. */
  get webhookUrl(): string {
    return `${this.url}${SLACK_PATH}`;
  }

  rateLimit(retryAfterSeconds: number): void {
    this.forced.push({ status: 429, headers: { 'retry-after': String(retryAfterSeconds) }, body: 'rate_limited' });
  }

  protected answer(req: ServiceRequest): ServiceReply {
    if (req.method !== 'POST' || !req.path.startsWith('/services/')) return text(404, 'no_service');
    if (req.path !== SLACK_PATH) return text(403, 'invalid_token');
    if (this.state !== 'ok') return text(STATUS[this.state], this.state);
    if (typeof req.json !== 'object' || req.json === null) return text(400, 'invalid_payload');
    const body = req.json as SlackPost;
    if ((body.text ?? '').trim() === '' && (body.blocks ?? []).length === 0) return text(400, 'no_text');
    if (!validBlocks(body.blocks ?? [])) return text(400, 'invalid_blocks');
    this.messages.push({ body, specials: specials(body) });
    return text(200, 'ok');
  }
}

function text(status: number, body: string): ServiceReply {
  return { status, body };
}

function validBlocks(blocks: Block[]): boolean {
  if (blocks.length > LIMITS.blocks) return false;
  return blocks.every((b) => {
    switch (b.type) {
      case 'header':
        return b.text?.type === 'plain_text' && chars(b.text.text ?? '') > 0 && chars(b.text.text ?? '') <= LIMITS.header;
      case 'section':
        return (b.text?.type === 'mrkdwn' || b.text?.type === 'plain_text') && chars(b.text.text ?? '') > 0 && chars(b.text.text ?? '') <= LIMITS.section;
      case 'context':
        return (b.elements ?? []).length > 0 && (b.elements ?? []).length <= LIMITS.contextElements
          && (b.elements ?? []).every((e) => chars(e.text ?? '') > 0 && chars(e.text ?? '') <= LIMITS.context);
      case 'divider':
        return true;
      default:
        return false;
    }
  });
}

/** The `<...>` forms in mrkdwn: what Slack turns into links, mentions and commands (escaped `&lt;` is text). */
function specials(body: SlackPost): string[] {
  const mrkdwn = [body.text ?? ''];
  for (const b of body.blocks ?? []) {
    for (const t of [b.text, ...(b.elements ?? []), ...(b.fields ?? [])]) if (t?.type === 'mrkdwn') mrkdwn.push(t.text ?? '');
  }
  return mrkdwn.flatMap((t) => t.match(/<[^<>]*>/g) ?? []);
}
