/**
 * Text an exchange sends (a coin's name, a network's `withdrawDesc`, an error's `msg`), as it may
 * enter the model: well-formed, and bounded. An exchange once sent a 100 KB `withdrawDesc`, which
 * made a 4.7 MB status page, a 4.8 MB webhook body and a 3.3 MB e-mail; a lone surrogate
 * (`"x\ud800"`) went out as JSON that strict parsers refuse. Applied where text enters (the
 * dialects' readers, exchange/read.ts), so every surface that shows or sends it is bounded by
 * construction, and the same text is always cut the same way (the diff compares what is kept).
 */

/** The most characters (Unicode code points) of one upstream text that are kept. */
export const UPSTREAM_TEXT_MAX = 1000;

/** What follows a cut text: `… [cut 99,000 characters]`. */
export function cutMark(cut: number): string {
  return `… [cut ${groupedDigits(cut)} character${cut === 1 ? '' : 's'}]`;
}

/**
 * `text` made well-formed (each lone surrogate becomes U+FFFD, which a strict JSON or UTF-8
 * reader accepts) and, past `max` characters, cut on a character boundary and marked with
 * cutMark. Deterministic: the same text gives the same result.
 */
export function upstreamText(text: string, max: number = UPSTREAM_TEXT_MAX): string {
  // `max` code points take at least `max` UTF-16 code units: a shorter text is never cut.
  if (text.length <= max) return text.toWellFormed();
  const end = afterCodePoints(text, 0, max);
  if (end === text.length) return text.toWellFormed();
  return `${text.slice(0, end).toWellFormed()}${cutMark(codePoints(text, end))}`;
}

/** The index just after `count` code points from `from` (a lone surrogate counts as one), or the text's end. */
function afterCodePoints(text: string, from: number, count: number): number {
  let i = from;
  for (let n = 0; n < count && i < text.length; n++) i += isPairAt(text, i) ? 2 : 1;
  return i;
}

/** How many code points there are from `from` to the end. */
function codePoints(text: string, from: number): number {
  let n = 0;
  for (let i = from; i < text.length; n++) i += isPairAt(text, i) ? 2 : 1;
  return n;
}

function isPairAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return false;
  const d = text.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

/** `99000` as `99,000`, the same on every machine (no locale). */
function groupedDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * `text` shown in at most `max` characters (a page with a thousand messages): cut on a character
 * boundary, ending in `…`. For display only: what is stored and sent is upstreamText's.
 */
export function shortened(text: string, max: number): string {
  if (text.length <= max || codePoints(text, 0) <= max) return text;
  return `${text.slice(0, afterCodePoints(text, 0, Math.max(0, max - 1)))}…`;
}
