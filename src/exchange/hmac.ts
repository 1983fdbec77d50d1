/**
 * HMAC-SHA256, the signature of every signed dialect (Binance, MEXC and Bybit as hex, OKX as
 * base64): one helper, so each dialect says only what it signs and how it sends the signature.
 */
import { createHmac } from 'node:crypto';

/** HMAC-SHA256 of `text` (UTF-8) keyed with `secret`, as lower-case hex or base64. */
export function hmacSha256(secret: string, text: string, encoding: 'hex' | 'base64'): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest(encoding);
}

/** The path with `query` appended (after `?`, or `&` when the path has a query already). */
export function withQuery(path: string, query: string): string {
  if (query === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/** The query string of a path as sent (`""` when none). */
export function queryOf(path: string): string {
  const at = path.indexOf('?');
  return at < 0 ? '' : path.slice(at + 1);
}
