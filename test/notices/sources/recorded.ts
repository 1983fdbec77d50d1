import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NoticeError, type NoticeSource } from '../../../src/notices/source';

/** A recorded answer of a notice source (`test/notices/fixtures/<source>/<file>`, sources in the README there). */
export function recorded(source: string, file: string): string {
  return readFileSync(join(__dirname, '..', 'fixtures', source, file), 'utf8');
}

/** The recorded answer as JSON, to change one field of it. */
export function recordedJson(source: string, file: string): Record<string, unknown> {
  return JSON.parse(recorded(source, file)) as Record<string, unknown>;
}

/** What `decode` throws, as `[kind, source]`. */
export function failure(source: NoticeSource, path: string, body: string): [string, string] {
  try {
    source.decode(path, body, 0);
  } catch (err) {
    if (err instanceof NoticeError) return [err.kind, err.source];
    throw err;
  }
  throw new Error('expected the decode to fail');
}
