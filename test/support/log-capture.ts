import { Writable } from 'node:stream';
import { createLogger, type Logger, type LoggerOptions } from '../../src/lib/logger';

/**
 * A logger at `level` (with any `redact` paths of its own) whose JSON lines are kept, parsed, in
 * `lines` (in the order written); `text()` is the raw output as written, for a test that checks a
 * secret never reaches it in any form.
 */
export function capturedLogger(level: string, options: Pick<LoggerOptions, 'redact'> = {}): { logger: Logger; lines: Record<string, unknown>[]; text: () => string } {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const destination = new Writable({
    write: (chunk: Buffer, _enc, done) => {
      raw.push(chunk.toString());
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ ...options, level, destination, format: 'json' }), lines, text: () => raw.join('') };
}
