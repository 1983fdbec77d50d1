/**
 * Error answers of the exchanges whose bodies are not the spec's `{"code","msg"}`: each
 * dialect names where its code and message are (`{label, message}`, `{status, err-code,
 * err-msg}`, `{code, msg, data}`...), and reads them through these helpers, so every dialect
 * cuts and cleans them the same way (dialect.ts: Refusal).
 */
import { upstreamText } from '../lib/upstream-text';
import type { Refusal } from './dialect';
import { isObject } from './read';

/** Bodies larger than this are not read for an error (a proxy's HTML page, say). */
const MAX_ERROR_BODY = 64 * 1024;

/** The body of an error answer as JSON, or undefined when it is none. */
export function errorJson(text: string): unknown {
  if (text.length > MAX_ERROR_BODY) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A message as a Refusal carries it: control characters replaced, at most 200 characters, well-formed. */
function cleanMessage(msg: string): string {
  // eslint-disable-next-line no-control-regex
  return upstreamText(msg.replace(/[\u0000-\u001f\u007f]+/g, ' '), 200);
}

/**
 * The code and message of an error body: the first of `codeKeys` that holds a string or a
 * number, and the first of `msgKeys` that holds a string.
 */
export function refusalOf(body: unknown, codeKeys: readonly string[], msgKeys: readonly string[]): Refusal {
  const out: Refusal = {};
  if (!isObject(body)) return out;
  for (const k of codeKeys) {
    const v = body[k];
    if (typeof v === 'string' || typeof v === 'number') {
      out.code = upstreamText(String(v), 32);
      break;
    }
  }
  for (const k of msgKeys) {
    const v = body[k];
    if (typeof v === 'string') {
      out.msg = cleanMessage(v);
      break;
    }
  }
  return out;
}

/**
 * An error answer of status `status`: its body read by `read`; HTTP 429 asks for a pause
 * (with its Retry-After when sent: the client reads the header), as does a body `read` says
 * is a rate limit.
 */
export function readRefusalWith(status: number, text: string, read: (body: unknown) => Refusal): Refusal {
  const out = read(errorJson(text));
  if (status === 429) out.pause = 'rate_limited';
  return out;
}
