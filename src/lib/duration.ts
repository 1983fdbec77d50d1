/** Durations as people write them in config and scenarios: `500ms`, `15s`, `5m`, `4h`, `1d`, `1h30m`. */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;

/** Milliseconds, or undefined when the text is not a duration. `0` alone is accepted. */
export function parseDuration(text: string): number | undefined {
  const s = text.trim();
  if (s === '0') return 0;
  if (s === '') return undefined;
  PART.lastIndex = 0;
  let total = 0;
  let end = 0;
  for (let m = PART.exec(s); m !== null; m = PART.exec(s)) {
    total += Number(m[1]) * (UNIT_MS[m[2] as string] as number);
    end = PART.lastIndex;
  }
  return end === s.length ? Math.round(total) : undefined;
}

/** Milliseconds in the largest unit that divides them exactly: `24d`, `90m`, `1500ms`. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = UNIT_MS[unit] as number;
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/**
 * A length of time for people: the largest unit and the one below it when not zero, rounded
 * down (`45s`, `5m`, `2h 5m`, `3d 4h`, `1d`). The one format of the status page, the digest
 * and the chat bots.
 */
export function span(ms: number): string {
  const units: [string, number][] = [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1_000]];
  const left = Math.max(0, ms);
  const first = units.findIndex(([, size]) => left >= size);
  if (first < 0) return '0s';
  const [unit, size] = units[first] as [string, number];
  const next = units[first + 1];
  const rest = next === undefined ? 0 : Math.floor((left % size) / next[1]);
  return `${Math.floor(left / size)}${unit}${rest > 0 && next !== undefined ? ` ${rest}${next[0]}` : ''}`;
}
