/** Reading and validating the config file; every failure is a list of `FILE:LINE:COL: message`. */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { readCapped, readFailure, sizeText } from '../lib/read-capped';
import type { Env } from '../lib/env-expand';
import { loadYaml } from '../lib/yaml-schema';
import type { ReceiverRegistry } from '../notify/receiver-registry';
import { receiverRegistry } from '../notify/registry';
import { crossCheck } from './checks';
import { configSchema, type Config, type SchemaOptions } from './schema';
import { locate, parseYamlSource, tell } from '../lib/yaml-source';

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/**
 * Validates config text. `fileName` is only used in messages; `baseDir` is where relative
 * paths in the file (rules_file, scenario, password_file, ca_file) resolve. `receivers` are the
 * receiver kinds the file may use (a test adds kinds of its own).
 */
export function parseConfig(text: string, fileName: string, env: Env, baseDir: string, receivers: ReceiverRegistry = receiverRegistry, options: SchemaOptions = {}): ConfigResult {
  const result = loadYaml(text, fileName, configSchema(resolve(baseDir), receivers, options), env, { check: (raw) => crossCheck(raw, receivers) });
  return result.ok ? { ok: true, config: result.value } : result;
}

/**
 * Bound of a config file, as the rules file has its own (rules/parse.ts): a config is a few
 * kilobytes; a file of megabytes is a mistake (a log or a dump named by accident), and parsing
 * one of 50 MB took 2.4 GB of memory.
 */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/** Why `path` cannot be read as a file, in words (`no such file`), or undefined when it can. */
async function unreadable(path: string): Promise<string | undefined> {
  try {
    if (!(await stat(path)).isFile()) return 'not a file';
    await access(path, constants.R_OK);
    return undefined;
  } catch (e) {
    return readFailure(e);
  }
}

/**
 * A rules_file that cannot be read, told at its key in the config file (`FILE:LINE:COL:
 * rules_file: cannot read PATH: no such file`), as every problem of the file is.
 */
async function rulesFileProblem(config: Config, text: string, fileName: string): Promise<string | undefined> {
  if (config.rules_file === undefined) return undefined;
  const why = await unreadable(config.rules_file);
  if (why === undefined) return undefined;
  const message = `rules_file: cannot read ${config.rules_file}: ${why}`;
  const parsed = parseYamlSource(text, fileName, { merge: true });
  return parsed.ok ? tell(parsed.source, [{ offset: locate(parsed.source, ['rules_file'], 'key'), message }])[0] : `${fileName}: ${message}`;
}

export interface LoadOptions extends SchemaOptions {
  /** Whether the file rules_file names must be readable (replay --rules reads another one instead). Default true. */
  rulesFile?: boolean;
}

/** Reads and validates a config file. Never throws for a bad, missing or oversized file: that is a problem too. */
export async function loadConfigFile(path: string, env: NodeJS.ProcessEnv = process.env, receivers: ReceiverRegistry = receiverRegistry, options: LoadOptions = {}): Promise<ConfigResult> {
  let read: Awaited<ReturnType<typeof readCapped>>;
  try {
    read = await readCapped(path, MAX_CONFIG_FILE_BYTES);
  } catch (e) {
    return { ok: false, problems: [`${path}: cannot read: ${readFailure(e)}`] };
  }
  if ('tooLarge' in read) {
    return { ok: false, problems: [`${path}: ${read.tooLarge} bytes, a config file may have at most ${MAX_CONFIG_FILE_BYTES} (${sizeText(MAX_CONFIG_FILE_BYTES)})`] };
  }
  const result = parseConfig(read.text, path, env, dirname(resolve(path)), receivers, { credentials: options.credentials });
  if (!result.ok || options.rulesFile === false) return result;
  const problem = await rulesFileProblem(result.config, read.text, path);
  return problem === undefined ? result : { ok: false, problems: [problem] };
}
