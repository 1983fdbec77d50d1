import type { Writable } from 'node:stream';
import { loadConfigFile, type Config } from '../config';

/** The process's standard streams and environment, passed in so commands run in tests. */
export interface Io {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}

/** The config of `path`, or undefined with every problem written to standard error. */
export async function loadOrReport(path: string, io: Io): Promise<Config | undefined> {
  const result = await loadConfigFile(path, io.env);
  if (result.ok) return result.config;
  for (const p of result.problems) io.stderr.write(`${p}\n`);
  return undefined;
}

export function write(stream: Writable, text: string): Promise<void> {
  return new Promise((done, fail) => stream.write(text, (err) => (err ? fail(err) : done())));
}
