/**
 * Telegram's HTML parse mode as the Bot API documents it ("Formatting options", HTML style),
 * for the Bot API double: written from the documentation, not from the code under test.
 * - Only these tags: b, strong, i, em, u, ins, s, strike, del, span class="tg-spoiler",
 *   tg-spoiler, a href, tg-emoji emoji-id, tg-time, code, pre, blockquote [expandable].
 * - "All <, > and & symbols that are not a part of a tag or an HTML entity must be replaced
 *   with the corresponding HTML entities"; "All numerical HTML entities are supported"; named
 *   ones only &lt; &gt; &amp; &quot;.
 * - Entities nest, but pre and code contain no other entity (except code directly in pre).
 * A violation is Telegram's 400 "Bad Request: can't parse entities: ...".
 */

const SUPPORTED = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'span', 'tg-spoiler', 'a', 'tg-emoji', 'tg-time', 'code', 'pre', 'blockquote']);
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

export class ParseError extends Error {}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The message text once its tags are taken out and its entities decoded, or a ParseError. */
export function parseTelegramHtml(html: string): string {
  let text = '';
  const open: string[] = [];
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
        const expected = open.pop();
        if (expected !== name) {
          throw new ParseError(`Unmatched end tag at byte offset ${bytes(html.slice(0, i))}, expected "</${expected ?? ''}>", found "</${name}>"`);
        }
      } else {
        const spoilerSpan = name !== 'span' || /class\s*=\s*"tg-spoiler"/.test(attrs);
        if (!SUPPORTED.has(name) || !spoilerSpan) throw new ParseError(`Unsupported start tag "${name}" at byte offset ${bytes(html.slice(0, i))}`);
        const inside = open[open.length - 1];
        if (inside === 'code' || (inside === 'pre' && name !== 'code')) throw new ParseError(`Can't nest "${name}" in "${inside}" at byte offset ${bytes(html.slice(0, i))}`);
        if (name === 'a' && !/href\s*=\s*"[^"]*"/.test(attrs)) throw new ParseError(`Tag "a" must have attribute "href" at byte offset ${bytes(html.slice(0, i))}`);
        open.push(name);
      }
      i = end + 1;
    } else if (c === '&') {
      const m = /^&(#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]+);/.exec(html.slice(i, i + 12));
      const entity = m?.[1];
      let decoded: string | undefined;
      const code = entity?.startsWith('#x') ? parseInt(entity.slice(2), 16) : entity?.startsWith('#') ? parseInt(entity.slice(1), 10) : undefined;
      if (code !== undefined) decoded = code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
      else if (entity !== undefined) decoded = NAMED[entity];
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
  if (unclosed !== undefined) throw new ParseError(`Can't find end tag corresponding to start tag "${unclosed}"`);
  return text;
}
