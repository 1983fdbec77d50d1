/**
 * A silence as a person asks for one (the API's POST /api/v1/silences, a chat bot's /silence),
 * validated into a Silence, or the reason it cannot be one.
 */
import { randomUUID } from 'node:crypto';
import { literalPattern, patternProblem, silenceMatchersProblem } from '../lib/pattern';
import type { Silence } from './silence';

/** The latest instant RFC 3339 can write with a four-digit year (9999-12-31T23:59:59.999Z). */
export const MAX_TIME = 253_402_300_799_999;
/** The longest silence one may ask for. */
export const MAX_SILENCE_MS = 366 * 86_400_000;

const LABEL = /^[A-Za-z_][A-Za-z0-9_]*$/;

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** A time of a silence: an RFC 3339 string or whole milliseconds since the epoch, 1970 to 9999. */
function silenceTime(v: unknown): number | undefined {
  const ms = typeof v === 'string' && RFC3339.test(v) ? Date.parse(v) : typeof v === 'number' && Number.isSafeInteger(v) ? v : NaN;
  return Number.isFinite(ms) && ms >= 0 && ms <= MAX_TIME ? ms : undefined;
}

/**
 * A silence from the API: `matchers` as Alertmanager writes them (`[{name, value, isRegex,
 * isEqual}]`) or as a map of label -> pattern (our glob, `a|b`, `/regex/`); `startsAt`
 * (default now), `endsAt` (required), `comment`, `createdBy`.
 */
export function parseSilence(body: unknown, now: number): Silence | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'expected a JSON object';
  const b = body as Record<string, unknown>;
  const matchers: { label: string; pattern: string }[] = [];
  if (Array.isArray(b.matchers)) {
    for (const m of b.matchers as unknown[]) {
      const { name, value, isRegex, isEqual } = (m ?? {}) as Record<string, unknown>;
      if (typeof name !== 'string' || !LABEL.test(name) || typeof value !== 'string') return 'matchers: each needs a label name and a string value';
      // `""` would become the pattern `//` (exactly the empty value); an empty pattern is an error (README, Rules).
      if (value === '') return `matchers: ${name}: empty value (an empty pattern is an error)`;
      let pattern = isRegex === true ? `/${value}/` : literalPattern(value);
      if (isEqual === false) pattern = `!${pattern}`;
      matchers.push({ label: name, pattern });
    }
  } else if (typeof b.matchers === 'object' && b.matchers !== null) {
    for (const [label, pattern] of Object.entries(b.matchers as Record<string, unknown>)) {
      if (!LABEL.test(label) || typeof pattern !== 'string') return 'matchers: label -> pattern, both strings';
      matchers.push({ label, pattern });
    }
  }
  if (matchers.length === 0) return 'matchers: at least one is required';
  for (const m of matchers) {
    const problem = patternProblem(m.pattern);
    if (problem !== undefined) return `matchers: ${m.label}: ${problem}`;
  }
  const broad = silenceMatchersProblem(matchers.map((m) => m.pattern));
  if (broad !== undefined) return `matchers: ${broad}`;
  const startsAt = b.startsAt === undefined ? now : silenceTime(b.startsAt);
  const endsAt = silenceTime(b.endsAt);
  if (startsAt === undefined) return 'startsAt: use RFC 3339 (or milliseconds since the epoch, up to year 9999)';
  if (endsAt === undefined) return 'endsAt: required, RFC 3339 (or milliseconds since the epoch, up to year 9999)';
  if (endsAt <= now) return 'endsAt must be in the future';
  if (endsAt <= startsAt) return 'endsAt must be after startsAt';
  const days = MAX_SILENCE_MS / 86_400_000;
  if (endsAt - startsAt > MAX_SILENCE_MS) return `a silence lasts at most ${days} days`;
  if (startsAt - now > MAX_SILENCE_MS) return `startsAt: at most ${days} days from now`;
  const text = (v: unknown, max: number): string => (typeof v === 'string' ? v.slice(0, max) : '');
  return { id: randomUUID(), matchers, startsAt, endsAt, comment: text(b.comment, 1000), createdBy: text(b.createdBy, 200) };
}
