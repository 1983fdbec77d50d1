/**
 * The shape of a spot-v3 answer around its records, and of its error answers (DESIGN.md
 * section 3: error bodies are `{"code", "msg"}`, `code` a number or a string).
 */
import type { Refusal } from '../../dialect';
import type { ExchangeError } from '../../errors';
import { shapeOf, isObject, ShapeError } from '../../read';
import { errorJson, refusalOf } from '../../refusal';

/** The list inside an answer: the array itself, or a `data` array of a `{code, msg, data}` envelope. */
export function listOf(body: unknown, what: string): unknown[] {
  if (Array.isArray(body)) return body;
  if (isObject(body) && Array.isArray(body.data)) return body.data;
  if (isObject(body) && 'code' in body) throw new ShapeError(`${what}: expected a list, got an error envelope`);
  throw new ShapeError(`${what}: expected a list, got ${shapeOf(body)}`);
}

/**
 * An error answer: the `{"code","msg"}` of its body, when it has one (`msg` cut short and
 * stripped of control characters); 429 asks for a pause, 418 is a ban (spec section 8 leaves
 * them unsaid; these are what deployments of the interface send, with Retry-After).
 */
export function readRefusal(status: number, text: string): Refusal {
  const out = refusalOf(errorJson(text), ['code'], ['msg']);
  if (status === 429) out.pause = 'rate_limited';
  else if (status === 418) out.pause = 'banned';
  return out;
}

/**
 * Any 4xx to a `symbols=` request may be about a symbol it names: deployments say so in
 * different ways (`-1121` "Invalid symbol", `-2007` "Symbol does not exist", a 404, a 400
 * without a code), so the list is narrowed down whatever the code.
 */
export function refusesSymbols(error: ExchangeError): boolean {
  return error.kind === 'http_4xx';
}
