/**
 * Query parameters as the reference exchange reads them: each by its plain name, once. A
 * bracketed name (`symbol[]`, as some HTTP libraries write arrays) would otherwise be an
 * unknown parameter, silently ignored, and the answer would not be what was asked for.
 */
import { ERROR_CODES } from '../../exchange/dialects/spot-v3/wire';

export interface ParamError {
  code: number;
  msg: string;
}

/**
 * -1100 for a name with `[` or `]`; -1102 for a name sent more than once, except `handled`
 * (the ticker endpoint answers a repeated `symbol` or `symbols` with its own messages).
 */
export function checkParams(params: URLSearchParams, handled: readonly string[] = []): ParamError | undefined {
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (/[[\]]/.test(name)) return { code: ERROR_CODES.illegalChars, msg: `Illegal characters found in parameter name '${name}'; send each parameter once, by its plain name.` };
    if (seen.has(name) && !handled.includes(name)) return { code: ERROR_CODES.malformed, msg: `Parameter '${name}' is malformed: sent more than once.` };
    seen.add(name);
  }
  return undefined;
}
