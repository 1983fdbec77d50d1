import { loadOrReport, rulesOrReport, type Io } from './io';

/** `spotwatch check-config`: the config and its rules file; every problem as FILE:LINE:COL: message. */
export async function checkConfigFile(path: string, io: Io): Promise<number> {
  const config = await loadOrReport(path, io);
  if (config === undefined) return 1;
  const rules = await rulesOrReport(config, io);
  if (rules === undefined) return 1;
  const n = (count: number, what: string): string => `${count} ${what}${count === 1 ? '' : 's'}`;
  io.stdout.write(`${path}: ok (${n(config.exchanges.length, 'exchange')}, ${n(rules.length, 'rule')}, ${n(config.notify.receivers.length, 'receiver')})\n`);
  return 0;
}
