import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/lib/logger';

/** A logger at `level` whose JSON lines are kept, parsed, in `lines` (in the order written). */
export function capturedLogger(level: string): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write: (chunk: Buffer, _enc, done) => {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ level, destination }), lines };
}
