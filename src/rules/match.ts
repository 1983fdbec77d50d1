import type { Matcher } from './model';

/**
 * Patterns of a rule's `match`: a glob (`USD*`, `?`), alternatives (`USDT|USDC`), a regular
 * expression written `/.../` (anchored, like Alertmanager's), and `!` in front to negate.
 */
export function compileMatcher(label: string, pattern: string): Matcher {
  const negate = pattern.startsWith('!');
  const body = negate ? pattern.slice(1) : pattern;
  const re = toRegExp(body);
  return {
    label,
    pattern,
    test(value) {
      const hit = value !== undefined && re.test(value);
      return negate ? !hit : hit;
    },
  };
}

/** Throws a SyntaxError for an invalid `/regex/`. */
function toRegExp(pattern: string): RegExp {
  if (pattern.length >= 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
    return new RegExp(`^(?:${pattern.slice(1, -1)})$`);
  }
  const alternatives = pattern.split('|').map((alt) => alt.replace(/[.+^${}()[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.'));
  return new RegExp(`^(?:${alternatives.join('|')})$`);
}

/** The literal values a pattern names (no glob, no regex, no negation), e.g. for "missing" checks. */
export function literalValues(pattern: string): string[] {
  if (pattern.startsWith('!') || pattern.startsWith('/')) return [];
  const alts = pattern.split('|');
  return alts.every((a) => !/[*?]/.test(a) && a !== '') ? alts : [];
}

export function matchesAll(matchers: readonly Matcher[], labels: Readonly<Record<string, string | undefined>>): boolean {
  for (const m of matchers) if (!m.test(labels[m.label])) return false;
  return true;
}
