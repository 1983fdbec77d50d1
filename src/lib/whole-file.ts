import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The small files a receiver keeps in the state_dir (Telegram's offset and buttons, Pushover's
 * receipts): written whole into `<path>.tmp` and renamed into place, so a crash leaves the old
 * content or the new one, never half of either.
 */
export function writeWhole(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** A file's text, or undefined when it is missing or cannot be read. */
export function readIfAny(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** A file's JSON, or undefined when it is missing, unreadable or not JSON. */
export function readJsonIfAny(path: string): unknown {
  const text = readIfAny(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
