import type { Writable } from 'node:stream';
import { loadRules } from '../runtime/settings';
import { loadConfigFile, type Config } from '../config';
import type { LoadOptions } from '../config/load';
import { ConfigError } from '../config/errors';
import type { Rule } from '../rules/model';

/** The process's standard streams and environment, passed in so commands run in tests. */
export interface Io {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}

/** The config of `path`, or undefined with every problem written to standard error. */
export async function loadOrReport(path: string, io: Io, options: LoadOptions = {}): Promise<Config | undefined> {
  const result = await loadConfigFile(path, io.env, undefined, options);
  if (result.ok) return result.config;
  for (const p of result.problems) io.stderr.write(`${p}\n`);
  return undefined;
}

/** The rules of `config` (its rules_file), or undefined with every problem written to standard error. */
export async function rulesOrReport(config: Config, io: Io): Promise<Rule[] | undefined> {
  try {
    return await loadRules(config, io.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const p of err.problems) io.stderr.write(`${p}\n`);
    return undefined;
  }
}

export function write(stream: Writable, text: string): Promise<void> {
  return new Promise((done, fail) => stream.write(text, (err) => (err ? fail(err) : done())));
}
