/**
 * The label patterns users write (rules `match`, routes, inhibit rules, silences, maintenance,
 * metrics filters, the API): a glob (`USD*`, `?`), alternatives (`USDT|USDC`), a regular
 * expression written `/.../`, and `!` in front to negate.
 *
 * Label values come from the exchange, so a pattern must never be able to stall the process:
 * every pattern runs on RE2 (re2js), which matches in time linear in the value and refuses
 * what cannot be matched that way (lookaround, backreferences). A regex is anchored as
 * Alertmanager anchors it: `^(?:...)$`, so `/USD/` means exactly "USD".
 */
import { RE2JS } from 're2js';

/** A pattern that cannot be compiled; the message says why in words, without the pattern's label. */
export class PatternError extends Error {
  override readonly name = 'PatternError';
}

/** A compiled pattern: whether a label value matches. An absent label never matches a pattern (so it matches a negated one). */
export type PatternTest = (value: string | undefined) => boolean;

/**
 * Results are remembered per value: the alert pipeline asks about the same few thousand label
 * values at every flush. Bounded so that a stream of distinct values cannot grow it: when
 * full it starts again.
 */
export const PATTERN_CACHE_SIZE = 4096;

/**
 * RE2 is linear in the value, times the size of the compiled program: `(.*a){1000}` (5,000
 * instructions) took 9 s on a 100,000-character value, `(.*a){400}` (2,000) 0.2 s. Counted
 * repetitions make a short pattern large, so the program is bounded, not the text. Plain
 * alternatives (`A|B|C`) are a set lookup and have no such bound.
 */
export const MAX_PATTERN_PROGRAM = 2000;

/** Instructions of a compiled pattern: re2js does not type its program, hence the guarded read. */
function programSize(re: RE2JS): number {
  const prog = (re as unknown as { re2Input?: { prog?: { inst?: unknown } } }).re2Input?.prog;
  return Array.isArray(prog?.inst) ? prog.inst.length : 0;
}

interface Parsed {
  negate: boolean;
  /** The RE2 source, anchored; undefined when the pattern is a set of literals. */
  source: string | undefined;
  literals: ReadonlySet<string> | undefined;
}

/** `/.../`: a regular expression; anything else is a glob with `|` alternatives. */
function isRegex(body: string): boolean {
  return body.length >= 2 && body.startsWith('/') && body.endsWith('/');
}

/** RE2 allows a backslash before ASCII punctuation only; other characters stand for themselves. */
function escapeLiteral(text: string): string {
  return text.replace(/[\\^$.|+()[\]{}/-]/g, '\\$&');
}

function globSource(alternative: string): string {
  let out = '';
  for (const ch of alternative) out += ch === '*' ? '(?s:.*)' : ch === '?' ? '(?s:.)' : escapeLiteral(ch);
  return out;
}

/** RE2's message, in words a user can act on. */
function explain(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  const message = raw.replace(/^error parsing regexp: /, '');
  if (/`\(\?<?[=!]/.test(message)) return 'lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported: patterns run on RE2, in linear time';
  if (/`\(\?>/.test(message)) return 'atomic groups ((?>...)) are not supported: patterns run on RE2, in linear time';
  if (/invalid escape sequence: `\\([1-9]|k)/.test(message)) return 'backreferences (\\1, \\k<name>) are not supported: patterns run on RE2, in linear time';
  if (/invalid nested repetition operator: `[*+?}][+]/.test(message)) return 'possessive quantifiers (*+, ++) are not supported: patterns run on RE2, in linear time';
  return message;
}

function parse(pattern: string): Parsed {
  const negate = pattern.startsWith('!');
  const body = negate ? pattern.slice(1) : pattern;
  if (body === '') throw new PatternError(negate ? 'empty pattern after "!"' : 'empty pattern');
  if (isRegex(body)) {
    const regex = body.slice(1, -1);
    // Alone first: `a)|(b` must not become valid inside the anchoring group.
    try {
      RE2JS.compile(regex);
    } catch (err) {
      throw new PatternError(`invalid regular expression ${body}: ${explain(err)}`);
    }
    return { negate, source: `^(?:${regex})$`, literals: undefined };
  }
  const alternatives = body.split('|');
  if (alternatives.every((alt) => !/[*?]/.test(alt))) return { negate, source: undefined, literals: new Set(alternatives) };
  return { negate, source: `^(?:${alternatives.map(globSource).join('|')})$`, literals: undefined };
}

/** Why a pattern cannot be used, or undefined when it can. The one check of config, rules and API. */
export function patternProblem(pattern: string): string | undefined {
  try {
    compilePattern(pattern);
    return undefined;
  } catch (err) {
    if (err instanceof PatternError) return err.message;
    throw err;
  }
}

/**
 * Why a silence (or maintenance window) with these patterns cannot be made: it has none, or every
 * one matches the empty string (the glob `*`, the regex `.*` between slashes, `BTC|`), so it
 * matches every value of its label and mutes every alert, critical ones too. Refused as
 * Alertmanager refuses it (silence/silence.go, validateSilence and matchesEmpty): "at least one
 * matcher must not match the empty string"; a negated pattern, like Alertmanager's `!=` and `!~`,
 * never counts as matching it. Patterns that cannot be compiled are left to patternProblem.
 */
export function silenceMatchersProblem(patterns: readonly string[]): string | undefined {
  const matchesEmpty = (p: string): boolean => !p.startsWith('!') && patternProblem(p) === undefined && compilePattern(p)('');
  if (patterns.length === 0) return 'at least one matcher is required (a silence without one would mute every alert)';
  if (!patterns.every(matchesEmpty)) return undefined;
  return 'at least one matcher must not match the empty string (a silence whose matchers all match every value would mute every alert)';
}

/** Throws a PatternError for a pattern that cannot be compiled. Each call compiles anew: the matchers are made once per load of rules, routes or silences. */
export function compilePattern(pattern: string): PatternTest {
  return compile(pattern);
}

function compile(pattern: string): PatternTest {
  const { negate, source, literals } = parse(pattern);
  let matches: (value: string) => boolean;
  if (literals !== undefined) {
    matches = (value) => literals.has(value);
  } else {
    let re: RE2JS;
    try {
      re = RE2JS.compile(source as string);
    } catch (err) {
      throw new PatternError(`invalid pattern ${JSON.stringify(pattern)}: ${explain(err)}`);
    }
    const size = programSize(re);
    if (size > MAX_PATTERN_PROGRAM) {
      throw new PatternError(`pattern too large: it compiles to ${size} instructions, at most ${MAX_PATTERN_PROGRAM} (list values as A|B|C, without /.../, for long lists)`);
    }
    const cache = new Map<string, boolean>();
    matches = (value) => {
      const known = cache.get(value);
      if (known !== undefined) return known;
      if (cache.size >= PATTERN_CACHE_SIZE) cache.clear();
      const hit = re.matches(value);
      cache.set(value, hit);
      return hit;
    };
  }
  return (value) => (value !== undefined && matches(value)) !== negate;
}

/** The literal values a pattern names (no glob, no regex, no negation), e.g. for "missing" checks. */
export function literalValues(pattern: string): string[] {
  if (pattern.startsWith('!') || isRegex(pattern)) return [];
  const alts = pattern.split('|');
  return alts.every((a) => !/[*?]/.test(a) && a !== '') ? alts : [];
}

/** A value as a pattern that matches exactly it (for Alertmanager's `isRegex: false`). */
export function literalPattern(value: string): string {
  return `/${escapeLiteral(value).replace(/[*?]/g, '\\$&')}/`;
}
