/**
 * Telegram's HTML parse mode (Bot API, "Formatting options", HTML style): only a few tags, and
 * only four named entities (`&lt;` `&gt;` `&amp;` `&quot;`); every other `<`, `>` and `&` must be
 * written as one of them, or the whole message is refused ("can't parse entities"). Upstream
 * text goes through `upstreamText`; templates are checked with `htmlProblem` when the config
 * is read, so a message never fails for its markup.
 */
import { oneLine } from '../kit/text';

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text for Telegram's HTML: the four named entities it knows, nothing else (no `&#39;`). */
export function escapeTelegram(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ESCAPES[c] as string);
}

/**
 * Telegram turns `@name` into a mention (which notifies that member) and `/word` into a command
 * a tap sends back to the chat: from an exchange's text, neither must work. A word joiner
 * (U+2060, invisible) after the `@` or `/` keeps the text as it reads and stops both.
 */
export function defuse(text: string): string {
  return text.replace(/(^|[^\w@])@(?=\w)/g, '$1@\u2060').replace(/(^|\s)\/(?=[A-Za-z])/g, '$1/\u2060');
}

/** At most `max` characters, the cut marked with an ellipsis, never half a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - 1));
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** Text from upstream as a message shows it: one line, clipped, mentions and commands defused. */
export function plainUpstream(text: string, max: number): string {
  return defuse(clip(oneLine(text), max));
}

/** The same, escaped for HTML. */
export function upstreamHtml(text: string, max: number): string {
  return escapeTelegram(plainUpstream(text, max));
}

const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"' };
const TOKEN = /<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:\s[^<>]*)?)>|&(#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z]+);|[<>&]/g;

/** The text of a message once Telegram has parsed it (tags gone, entities decoded): what its limit counts. */
export function parsedText(html: string): string {
  return html.replace(TOKEN, (whole, _slash, tag: string | undefined, _attrs, entity: string | undefined) => {
    if (tag !== undefined) return '';
    if (entity === undefined) return whole;
    if (entity.startsWith('#')) {
      const code = entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[entity] ?? whole;
  });
}

/** Tags the Bot API's HTML style supports (and how the pre/code pair nests). */
const TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'span', 'tg-spoiler', 'a', 'tg-emoji', 'tg-time', 'code', 'pre', 'blockquote']);

/**
 * What Telegram would refuse in a message template (before its fields are filled): a tag it
 * does not support, a tag left open or closed out of order, a named entity other than its four,
 * a bare `<`, `>` or `&`. Undefined when there is nothing.
 */
export function htmlProblem(html: string): string | undefined {
  const open: string[] = [];
  for (const m of html.matchAll(TOKEN)) {
    const [whole, slash, rawTag, , entity] = m;
    if (rawTag !== undefined) {
      const tag = rawTag.toLowerCase();
      if (!TAGS.has(tag)) return `<${slash}${rawTag}> is not a tag Telegram supports (use b, i, u, s, a, code, pre, blockquote, tg-spoiler)`;
      if (slash === '') open.push(tag);
      else if (open.pop() !== tag) return `</${tag}> closes a tag that is not the last one open`;
    } else if (entity !== undefined) {
      if (!entity.startsWith('#') && NAMED[entity] === undefined) return `&${entity}; is not an entity Telegram knows (only &lt; &gt; &amp; &quot; and numeric ones)`;
    } else {
      return `a bare "${whole}": write ${escapeTelegram(whole)} instead`;
    }
  }
  const last = open.pop();
  return last === undefined ? undefined : `<${last}> is never closed`;
}
