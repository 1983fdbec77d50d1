/**
 * Telegram's HTML parse mode as the Bot API documents it ("Formatting options", HTML style;
 * MessageEntity), for the Bot API double: written from the documentation, not from the code under test.
 * - Only these tags: b, strong, i, em, u, ins, s, strike, del, span class="tg-spoiler",
 *   tg-spoiler, a href, tg-emoji emoji-id, tg-time, code, pre, blockquote [expandable].
 * - "All <, > and & symbols that are not a part of a tag or an HTML entity must be replaced
 *   with the corresponding HTML entities"; "All numerical HTML entities are supported"; named
 *   ones only &lt; &gt; &amp; &quot;.
 * - Entities nest, but pre and code contain no other entity (except code directly in pre).
 * A violation is Telegram's 400 "Bad Request: can't parse entities: ...".
 * - The entities (MessageEntity): b/strong bold, i/em italic, u/ins underline, s/strike/del
 *   strikethrough, tg-spoiler spoiler, a text_link (url), tg-emoji custom_emoji
 *   (custom_emoji_id), tg-time date_time (unix_time, date_time_format), code, pre (language
 *   from `<pre><code class="language-...">`: "the code entity of a pre... with language"),
 *   blockquote or expandable_blockquote; `offset` and `length` "in UTF-16 code units".
 *   Empty ones (length 0) are dropped; sorted by offset, the enclosing one first.
 * Not modelled: text_mention for tg://user?id= links, URL normalisation, the entities Telegram
 * detects by itself (url, mention, hashtag, bot_command...).
 */

export interface MessageEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
  custom_emoji_id?: string;
  unix_time?: number;
  date_time_format?: string;
}

const SUPPORTED = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'span', 'tg-spoiler', 'a', 'tg-emoji', 'tg-time', 'code', 'pre', 'blockquote']);
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

export class ParseError extends Error {}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

interface Open {
  name: string;
  attrs: string;
  start: number;
  order: number;
}

/** An attribute's value (double-quoted, as the docs write them), its HTML entities decoded. */
function attribute(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*"([^"]*)"`).exec(attrs);
  return m === null ? undefined : decodeEntities(m[1] as string);
}

function decodeEntities(value: string): string {
  return value.replace(/&(#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]+);/g, (all, e: string) => decodeEntity(e) ?? all);
}

function decodeEntity(entity: string): string | undefined {
  const code = entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : entity.startsWith('#') ? parseInt(entity.slice(1), 10) : undefined;
  if (code !== undefined) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  return NAMED[entity];
}

/** The entity a closed tag makes (undefined: none, as code merged into its pre). */
function entityOf(tag: Open, length: number, parent: Open | undefined, inner: MessageEntity | undefined): MessageEntity | undefined {
  const at = { offset: tag.start, length };
  switch (tag.name) {
    case 'b': case 'strong': return { type: 'bold', ...at };
    case 'i': case 'em': return { type: 'italic', ...at };
    case 'u': case 'ins': return { type: 'underline', ...at };
    case 's': case 'strike': case 'del': return { type: 'strikethrough', ...at };
    case 'span': case 'tg-spoiler': return { type: 'spoiler', ...at };
    case 'a': return { type: 'text_link', ...at, url: attribute(tag.attrs, 'href') ?? '' };
    case 'tg-emoji': return { type: 'custom_emoji', ...at, custom_emoji_id: attribute(tag.attrs, 'emoji-id') ?? '' };
    case 'tg-time': {
      const format = attribute(tag.attrs, 'format');
      return { type: 'date_time', ...at, unix_time: Number(attribute(tag.attrs, 'unix') ?? 0), ...(format !== undefined && { date_time_format: format }) };
    }
    case 'code':
      // Code directly in pre: the pre's own entity, with the language of class="language-...".
      return parent?.name === 'pre' ? undefined : { type: 'code', ...at };
    case 'pre': {
      const language = inner !== undefined && inner.offset === tag.start && inner.length === length ? inner.language : undefined;
      return { type: 'pre', ...at, ...(language !== undefined && { language }) };
    }
    case 'blockquote': return { type: /(^|\s)expandable(\s|=|$)/.test(tag.attrs) ? 'expandable_blockquote' : 'blockquote', ...at };
    default: return undefined;
  }
}

/**
 * The message text once its tags are taken out and its HTML entities decoded, and the
 * MessageEntity list Telegram makes of the tags; or a ParseError.
 */
export function parseTelegramHtmlEntities(html: string): { text: string; entities: MessageEntity[] } {
  let text = '';
  const open: Open[] = [];
  const made: { entity: MessageEntity; order: number }[] = [];
  /** The language of a code tag just closed directly in a pre, for that pre. */
  let codeInPre: MessageEntity | undefined;
  let i = 0;
  while (i < html.length) {
    const c = html[i] as string;
    if (c === '<') {
      const end = html.indexOf('>', i);
      const inner = end < 0 ? '' : html.slice(i + 1, end);
      const m = /^(\/?)([a-zA-Z][a-zA-Z0-9-]*)(\s[^]*)?$/.exec(inner);
      if (end < 0 || m === null) throw new ParseError(`Unsupported start tag "${inner}" at byte offset ${bytes(html.slice(0, i))}`);
      const closing = m[1] === '/';
      const name = (m[2] as string).toLowerCase();
      const attrs = m[3] ?? '';
      if (closing) {
        const tag = open.pop();
        if (tag?.name !== name) {
          throw new ParseError(`Unmatched end tag at byte offset ${bytes(html.slice(0, i))}, expected "</${tag?.name ?? ''}>", found "</${name}>"`);
        }
        const parent = open[open.length - 1];
        const length = text.length - tag.start;
        if (name === 'code' && parent?.name === 'pre') {
          const language = /^language-(.+)$/.exec(attribute(tag.attrs, 'class') ?? '')?.[1];
          codeInPre = { type: 'code', offset: tag.start, length, ...(language !== undefined && { language }) };
        }
        const entity = entityOf(tag, length, parent, name === 'pre' ? codeInPre : undefined);
        if (name === 'pre') codeInPre = undefined;
        if (entity !== undefined && length > 0) made.push({ entity, order: tag.order });
      } else {
        const spoilerSpan = name !== 'span' || /class\s*=\s*"tg-spoiler"/.test(attrs);
        if (!SUPPORTED.has(name) || !spoilerSpan) throw new ParseError(`Unsupported start tag "${name}" at byte offset ${bytes(html.slice(0, i))}`);
        const inside = open[open.length - 1]?.name;
        if (inside === 'code' || (inside === 'pre' && name !== 'code')) throw new ParseError(`Can't nest "${name}" in "${inside}" at byte offset ${bytes(html.slice(0, i))}`);
        if (name === 'a' && !/href\s*=\s*"[^"]*"/.test(attrs)) throw new ParseError(`Tag "a" must have attribute "href" at byte offset ${bytes(html.slice(0, i))}`);
        open.push({ name, attrs, start: text.length, order: i });
      }
      i = end + 1;
    } else if (c === '&') {
      const m = /^&(#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]+);/.exec(html.slice(i, i + 12));
      const decoded = m === null ? undefined : decodeEntity(m[1] as string);
      if (decoded === undefined) throw new ParseError(`Unsupported HTML entity at byte offset ${bytes(html.slice(0, i))}`);
      text += decoded;
      i += (m?.[0] as string).length;
    } else if (c === '>') {
      throw new ParseError(`Unexpected ">" at byte offset ${bytes(html.slice(0, i))}`);
    } else {
      text += c;
      i += 1;
    }
  }
  const unclosed = open.pop();
  if (unclosed !== undefined) throw new ParseError(`Can't find end tag corresponding to start tag "${unclosed.name}"`);
  made.sort((a, b) => a.entity.offset - b.entity.offset || b.entity.length - a.entity.length || a.order - b.order);
  return { text, entities: made.map((m) => m.entity) };
}

/** The message text once its tags are taken out and its entities decoded, or a ParseError. */
export function parseTelegramHtml(html: string): string {
  return parseTelegramHtmlEntities(html).text;
}
