import { visibleText } from './visible-text';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The noncharacters HTML forbids as text (the Nu Html Checker's "forbidden code point"):
 * U+FDD0-U+FDEF and the last two of every plane. Each becomes U+FFFD, as lone surrogates do
 * (toWellFormed, as lib/upstream-text.ts makes upstream text well-formed).
 */
const NONCHARACTER = /[\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD83F\uD87F\uD8BF\uD8FF\uD93F\uD97F\uD9BF\uD9FF\uDA3F\uDA7F\uDABF\uDAFF\uDB3F\uDB7F\uDBBF\uDBFF][\uDFFE\uDFFF]/g;

/**
 * Upstream text is hostile: every value that reaches HTML or XML (the Atom feed, badges) goes through this. Markup is escaped,
 * control and bidi characters are shown as `\uXXXX` (visibleText; tab and newlines stay), and
 * what HTML cannot hold becomes U+FFFD.
 */
export function escapeHtml(text: string): string {
  return visibleText(text, true)
    .toWellFormed()
    .replace(NONCHARACTER, '\uFFFD')
    .replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}
