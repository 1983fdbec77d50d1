/** Reading and validating the config file; every failure is a list of `FILE:LINE:COL: message`. */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
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

/** Reads and validates a config file. Never throws for a bad or missing file: that is a problem too. */
export async function loadConfigFile(path: string, env: NodeJS.ProcessEnv = process.env, receivers: ReceiverRegistry = receiverRegistry): Promise<ConfigResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    return { ok: false, problems: [`${path}: cannot read: ${readFailure(e)}`] };
  }
  return parseConfig(text, path, env, dirname(resolve(path)), receivers);
}

const READ_FAILURES: Partial<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'a parent is not a directory',
};

function readFailure(e: unknown): string {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : '';
  return READ_FAILURES[code] ?? (e instanceof Error ? e.message : String(e));
}
