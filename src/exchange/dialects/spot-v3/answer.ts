/**
 * The shape of a spot-v3 answer around its records, and of its error answers (DESIGN.md
 * section 3: error bodies are `{"code", "msg"}`, `code` a number or a string).
 */
import { Refused, type Refusal } from '../../dialect';
import type { ExchangeError } from '../../errors';
import { shapeOf, isObject, ShapeError } from '../../read';
import { errorJson, refusalOf } from '../../refusal';

/** Codes of an envelope that says "success" (`{"code":"200","msg":"success","data":[...]}`): without its list, a wrong shape, not a refusal. */
const SUCCESS_CODES: ReadonlySet<string> = new Set(['0', '200', '00000', '200000']);

/** The list inside an answer: the array itself, or a `data` array of a `{code, msg, data}` envelope. */
export function listOf(body: unknown, what: string): unknown[] {
  if (Array.isArray(body)) return body;
  if (isObject(body) && Array.isArray(body.data)) return body.data;
  // An error sent with a 2xx status (dialects.md rule 8): the exchange refusing, with its own code and message.
  if (isObject(body) && 'code' in body && 'msg' in body && !SUCCESS_CODES.has(String(body.code))) throw new Refused(refusalOfBody(body));
  if (isObject(body) && 'code' in body) throw new ShapeError(`${what}: expected a list, got an error envelope`);
  throw new ShapeError(`${what}: expected a list, got ${shapeOf(body)}`);
}

/**
 * An error answer: the `{"code","msg"}` of its body, when it has one (`msg` cut short and
 * stripped of control characters); 429 asks for a pause, 418 is a ban (spec section 8 leaves
 * them unsaid; these are what deployments of the interface send, with Retry-After).
 */
export function readRefusal(status: number, text: string): Refusal {
  const out = refusalOfBody(errorJson(text));
  if (status === 429) out.pause = 'rate_limited';
  else if (status === 418) out.pause = 'banned';
  return out;
}

/**
 * Codes that say "too many requests", whatever the HTTP status they come with: `-1003` is the
 * reference exchange's (DESIGN.md section 5: "budget exceeded ... code -1003") and that of the
 * deployments of the interface, which answer it with 429, 418, 400 or even 200.
 */
const RATE_LIMIT_CODES: ReadonlySet<string> = new Set(['-1003']);

/** The `{"code","msg"}` of an error body; a rate-limit code asks for a pause. */
function refusalOfBody(body: unknown): Refusal {
  const out = refusalOf(body, ['code'], ['msg']);
  if (out.code !== undefined && RATE_LIMIT_CODES.has(out.code)) out.pause = 'rate_limited';
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
