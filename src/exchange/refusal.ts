/**
 * The error body of a JSON exchange answer as a Refusal: its code and message under the
 * exchange's own key names (Binance `code`/`msg`, Bybit `retCode`/`retMsg`), the message cut
 * short and stripped of control characters, the code as text. Anything else reads as nothing.
 */
import type { Refusal } from './dialect';
import { isObject } from './read';

/** The body parsed, or undefined when it is not JSON (or too large to bother). */
export function jsonBody(text: string): unknown {
  if (text.length > 64 * 1024) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The code and message of an error object, under the given keys. */
export function refusalOf(body: unknown, codeKey: string, msgKey: string): Refusal {
  const out: Refusal = {};
  if (!isObject(body)) return out;
  const code = body[codeKey];
  const msg = body[msgKey];
  if (typeof code === 'number' || typeof code === 'string') out.code = String(code).slice(0, 32);
  // eslint-disable-next-line no-control-regex
  if (typeof msg === 'string') out.msg = msg.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 200);
  return out;
}
