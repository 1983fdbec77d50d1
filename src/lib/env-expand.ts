/**
 * `${VAR}` expansion for config text, in the spirit of Docker Compose: `${VAR}`,
 * `${VAR:-default}` (used when VAR is unset or empty), `$$` for a literal `$`. A `$` followed by
 * anything else stays as it is, so prices and regexes (`USD$`) need no escaping.
 * The result is never expanded again: a variable's value can itself contain `${...}`.
 */

/** Variables by name, as process.env. */
export type Env = Readonly<Record<string, string | undefined>>;

export interface Expansion {
  value: string;
  /** Whether any `${...}` was replaced (a `$$` alone does not count). */
  substituted: boolean;
  errors: string[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function expandEnv(text: string, env: Env): Expansion {
  if (!text.includes('$')) return { value: text, substituted: false, errors: [] };
  let out = '';
  let substituted = false;
  const errors: string[] = [];
  let i = 0;
  while (i < text.length) {
    const dollar = text.indexOf('$', i);
    if (dollar === -1) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, dollar);
    const next = text[dollar + 1];
    if (next === '$') {
      out += '$';
      i = dollar + 2;
      continue;
    }
    if (next !== '{') {
      out += '$';
      i = dollar + 1;
      continue;
    }
    const close = text.indexOf('}', dollar + 2);
    if (close === -1) {
      errors.push(`unterminated "\${" (write $$ for a literal $)`);
      out += text.slice(dollar);
      break;
    }
    const body = text.slice(dollar + 2, close);
    const sep = body.indexOf(':-');
    const name = sep === -1 ? body : body.slice(0, sep);
    const fallback = sep === -1 ? undefined : body.slice(sep + 2);
    i = close + 1;
    substituted = true;
    if (!NAME.test(name)) {
      errors.push(`invalid variable reference "\${${body}}" (names are letters, digits and _)`);
      continue;
    }
    const value = env[name];
    if (fallback !== undefined) {
      out += value === undefined || value === '' ? fallback : value;
    } else if (value === undefined) {
      errors.push(`environment variable ${name} is not set (write \${${name}:-default} to give a default)`);
    } else {
      out += value;
    }
  }
  return { value: out, substituted, errors };
}
