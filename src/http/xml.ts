import { escapeHtml } from '../lib/html';

/**
 * Upstream text in XML (Atom, SVG): escaped as for HTML, which also leaves nothing XML 1.0
 * cannot hold (its C0 controls are shown as `\u0001`, noncharacters and lone surrogates become
 * U+FFFD), and no bidi control that would reorder a feed reader's line.
 */
export function escapeXml(text: string): string {
  return escapeHtml(text);
}
