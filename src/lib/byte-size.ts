/** Sizes as people write them in config: `1048576`, `512KiB`, `32MiB`, `1GB`. */

const UNIT_BYTES: Record<string, number> = {
  b: 1,
  kb: 1_000,
  mb: 1_000_000,
  gb: 1_000_000_000,
  kib: 1_024,
  mib: 1_048_576,
  gib: 1_073_741_824,
};
const SIZE = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i;

/** Bytes, or undefined when the text is not a size. A bare number is bytes. */
export function parseByteSize(text: string): number | undefined {
  const m = SIZE.exec(text.trim());
  if (m === null) return undefined;
  const unit = (m[2] ?? '').toLowerCase();
  const factor = unit === '' ? 1 : UNIT_BYTES[unit];
  if (factor === undefined) return undefined;
  const bytes = Number(m[1]) * factor;
  // Fractions of a byte mean the writer meant something else ("1.5B"); refuse rather than round.
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}
