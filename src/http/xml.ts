import { escapeHtml } from '../lib/html';

/**
 * Characters XML 1.0 does not allow at all (not even as references): C0 controls other than tab,
 * newline and carriage return, lone surrogates, U+FFFE and U+FFFF.
 */
// eslint-disable-next-line no-control-regex -- these control characters are what it finds
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Upstream text in XML (Atom, SVG): escaped, and what XML cannot hold replaced by U+FFFD. */
export function escapeXml(text: string): string {
  return escapeHtml(text.replace(NOT_XML, '\uFFFD'));
}
