import { visibleText } from './visible-text';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * What HTML forbids as text (the Nu Html Checker's "forbidden code point"): the noncharacters
 * (U+FDD0-U+FDEF and the last two of every plane), and lone surrogates. Each becomes U+FFFD.
 */
const NOT_HTML = /[\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD83F\uD87F\uD8BF\uD8FF\uD93F\uD97F\uD9BF\uD9FF\uDA3F\uDA7F\uDABF\uDAFF\uDB3F\uDB7F\uDBBF\uDBFF][\uDFFE\uDFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Upstream text is hostile: every value that reaches HTML goes through this. Markup is escaped,
 * control and bidi characters are shown as `\uXXXX` (visibleText; tab and newlines stay), and
 * what HTML cannot hold becomes U+FFFD.
 */
export function escapeHtml(text: string): string {
  return visibleText(text, true)
    .replace(NOT_HTML, '\uFFFD')
    .replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}
