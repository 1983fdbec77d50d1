/** Reading and validating the config file; every failure is a list of `FILE:LINE:COL: message`. */
import { dirname, resolve } from 'node:path';
import { readCapped, readFailure, sizeText } from '../lib/read-capped';
import type { Env } from './env-expand';
import { loadYaml } from './yaml-schema';
import type { ReceiverRegistry } from '../notify/receiver-registry';
import { receiverRegistry } from '../notify/registry';
import { crossCheck } from './checks';
import { configSchema, type Config } from './schema';

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/**
 * Validates config text. `fileName` is only used in messages; `baseDir` is where relative
 * paths in the file (rules_file, scenario, password_file, ca_file) resolve. `receivers` are the
 * receiver kinds the file may use (a test adds kinds of its own).
 */
export function parseConfig(text: string, fileName: string, env: Env, baseDir: string, receivers: ReceiverRegistry = receiverRegistry): ConfigResult {
  const result = loadYaml(text, fileName, configSchema(resolve(baseDir), receivers), env, { check: (raw) => crossCheck(raw, receivers) });
  return result.ok ? { ok: true, config: result.value } : result;
}

/**
 * Bound of a config file, as the rules file has its own (rules/load.ts): a config is a few
 * kilobytes; a file of megabytes is a mistake (a log or a dump named by accident), and parsing
 * one of 50 MB took 2.4 GB of memory.
 */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/** Reads and validates a config file. Never throws for a bad, missing or oversized file: that is a problem too. */
export async function loadConfigFile(path: string, env: NodeJS.ProcessEnv = process.env, receivers: ReceiverRegistry = receiverRegistry): Promise<ConfigResult> {
  let read: Awaited<ReturnType<typeof readCapped>>;
  try {
    read = await readCapped(path, MAX_CONFIG_FILE_BYTES);
  } catch (e) {
    return { ok: false, problems: [`${path}: cannot read: ${readFailure(e)}`] };
  }
  if ('tooLarge' in read) {
    return { ok: false, problems: [`${path}: ${read.tooLarge} bytes, a config file may have at most ${MAX_CONFIG_FILE_BYTES} (${sizeText(MAX_CONFIG_FILE_BYTES)})`] };
  }
  return parseConfig(read.text, path, env, dirname(resolve(path)), receivers);
}
