import { resolve } from 'node:path';
import { ConfigError } from '../config/errors';
import { Daemon } from '../daemon';
import { listenProblem } from '../lib/listen-problem';
import { createLogger } from '../lib/logger';
import { receiverRegistry } from '../notify/registry';
import { StateDirLocked } from '../store/lock';
import { StoreError } from '../store/store';
import { loadOrReport, type Io } from './io';
import { systemScheduler } from '../lib/scheduler';

export interface RunOptions {
  /** `--record DIR`: record every answer there (for spotwatch replay), whatever `record.dir` says. */
  record?: string | undefined;
}

/** `spotwatch run`: the daemon, until SIGTERM or SIGINT. */
export async function runDaemon(path: string, io: Io, options: RunOptions = {}): Promise<number> {
  const config = await loadOrReport(path, io);
  if (config === undefined) return 1;
  const logger = createLogger({ level: config.log.level, format: config.log.format, redact: receiverRegistry.logRedactPaths() });
  let daemon: Daemon;
  try {
    daemon = await Daemon.start(config, { logger }, { path, env: io.env, recordDir: options.record === undefined ? undefined : resolve(options.record) });
  } catch (err) {
    if (err instanceof StoreError || err instanceof StateDirLocked) {
      io.stderr.write(`spotwatch: ${err.message}\n`);
      return 1;
    }
    const listening = listenProblem(err);
    if (listening !== undefined) {
      io.stderr.write(`spotwatch: ${listening} (server.listen)\n`);
      return 1;
    }
    if (!(err instanceof ConfigError)) throw err;
    for (const p of err.problems) io.stderr.write(`${p}\n`);
    return 1;
  }
  const onHangup = (): void => {
    logger.info('SIGHUP: reloading the configuration');
    void daemon.reload();
  };
  await new Promise<void>((done) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      logger.info({ signal }, 'stopping');
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      done();
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    process.on('SIGHUP', onHangup);
  });
  process.off('SIGHUP', onHangup);
  // A stop that hangs must not outlive the 10 s a supervisor gives.
  const force = systemScheduler.after(
    9_000,
    () => {
      logger.error('stop took longer than 9 s; exiting');
      process.exit(1);
    },
    { keepAlive: false },
  );
  await daemon.stop();
  force();
  return 0;
}
