import { compilePattern } from '../lib/pattern';
import type { Matcher } from './model';

/**
 * A label matcher for one of the user's patterns (src/lib/pattern.ts: glob, `A|B`, anchored
 * `/regex/` on RE2, `!` to negate). Throws a PatternError for a pattern that cannot be compiled;
 * the loaders and the API reject those first, with `patternProblem`.
 */
export function compileMatcher(label: string, pattern: string): Matcher {
  const test = compilePattern(pattern);
  return { label, pattern, test };
}

export function matchesAll(matchers: readonly Matcher[], labels: Readonly<Record<string, string | undefined>>): boolean {
  for (const m of matchers) if (!m.test(labels[m.label])) return false;
  return true;
}
