import { open } from 'node:fs/promises';

/**
 * A file's text, read no further than `maxBytes` (and one byte to know it is exceeded): a file a
 * user points at may be huge (a 50 MB YAML file took 2.4 GB to parse), and nothing it could hold
 * is worth reading past its bound. `tooLarge`: its size, when over the bound.
 */
export async function readCapped(path: string, maxBytes: number): Promise<{ text: string } | { tooLarge: number }> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    if (size > maxBytes) return { tooLarge: size };
    const buffer = Buffer.alloc(maxBytes + 1);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    if (bytesRead > maxBytes) return { tooLarge: bytesRead };
    return { text: buffer.toString('utf8', 0, bytesRead) };
  } finally {
    await file.close();
  }
}

const READ_FAILURES: Partial<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'a parent is not a directory',
};

/** Why a file could not be read, in words (`no such file`), without a stack. */
export function readFailure(e: unknown): string {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : '';
  return READ_FAILURES[code] ?? (e instanceof Error ? e.message : String(e));
}

/** `4 MiB`, `1 MiB`, `512 KiB`: a bound as users read it. */
export function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}
