import { loadRules } from '../compose/settings';
import { ConfigError } from '../config/errors';
import type { Rule } from '../rules/model';
import { loadOrReport, type Io } from './io';

/** `spotwatch check-config`: the config and its rules file; every problem as FILE:LINE:COL: message. */
export async function checkConfigFile(path: string, io: Io): Promise<number> {
  const config = await loadOrReport(path, io);
  if (config === undefined) return 1;
  let rules: Rule[];
  try {
    rules = await loadRules(config, io.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const p of err.problems) io.stderr.write(`${p}\n`);
    return 1;
  }
  const n = (count: number, what: string): string => `${count} ${what}${count === 1 ? '' : 's'}`;
  io.stdout.write(`${path}: ok (${n(config.exchanges.length, 'exchange')}, ${n(rules.length, 'rule')}, ${n(config.notify.receivers.length, 'receiver')})\n`);
  return 0;
}
