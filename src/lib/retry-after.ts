/**
 * `Retry-After` as milliseconds: delay-seconds or an HTTP date (RFC 9110 section 10.2.3).
 * Fractional seconds (`0.5`, which some services send) are read as such; anything else without a letter in it
 * is no date (Date.parse would read `0.05` as a year 2000 date) and no answer.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[A-Za-z]/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
