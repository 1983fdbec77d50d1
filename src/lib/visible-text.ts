/**
 * Text an exchange sends, made safe to show: its control characters (C0, DEL, C1) and the
 * characters that reorder text (the bidi embeddings, overrides and isolates U+202A-U+202E and
 * U+2066-U+2069, the marks U+200E, U+200F and U+061C) become visible escapes, `\u001b`, as the
 * JSON log writes a control character. An ESC in a `withdrawDesc` would otherwise colour or
 * clear a terminal, a BEL ring it, and a U+202E show `closed` on a status page as `desolc`.
 */

// eslint-disable-next-line no-control-regex -- these control characters are what it finds
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- the same, less tab, newline and carriage return
const HIDDEN_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const escaped = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `text` with every control and bidi control character as a visible `\uXXXX`; `lines`: tab,
 * newline and carriage return are kept (where the format itself can hold them, as HTML can).
 */
export function visibleText(text: string, lines = false): string {
  return text.replace(lines ? HIDDEN_BUT_LINES : HIDDEN, escaped);
}
