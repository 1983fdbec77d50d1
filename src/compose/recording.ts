/**
 * The recording the configuration asks for (`spotwatch run --record DIR`, which sets
 * SPOTWATCH_RECORD_DIR for the daemon so that it holds across reloads, else `record.dir`): its
 * options, and the poll thread's recorder through starts and reloads.
 */
import { resolve } from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../lib/logger';
import { Recorder, type RecordOptions } from '../poll/record/recorder';
import type { PollState } from '../poll/state';

/** The environment variable `run --record DIR` sets; it wins over `record.dir`. */
export const RECORD_DIR_ENV = 'SPOTWATCH_RECORD_DIR';

export function recordOptions(config: Config, env: Record<string, string | undefined>): RecordOptions | undefined {
  const dir = env[RECORD_DIR_ENV] || config.record.dir;
  if (dir === undefined) return undefined;
  return {
    dir: resolve(dir),
    maxBytes: config.record.max_size,
    maxAgeMs: config.record.max_age,
    watched: config.exchanges.map((e) => ({ name: e.name, dialect: e.dialect })),
  };
}

/**
 * The recorder after a (re)configuration whose state is `state`: the running one, told of the
 * reload and given the new bounds; a new one that begins with `state` (recording turned on, or
 * moved to another directory: the old one is closed); or none.
 */
export function recorderFor(current: Recorder | undefined, config: Config, env: Record<string, string | undefined>, state: PollState, now: number, logger: Logger): Recorder | undefined {
  const options = recordOptions(config, env);
  if (current !== undefined && options?.dir === current.dir) {
    current.reload(options, now);
    return current;
  }
  void current?.close();
  if (options === undefined) return undefined;
  const recorder = new Recorder(options, logger);
  recorder.start(state, now);
  logger.info({ dir: options.dir, maxBytes: options.maxBytes, maxAgeMs: options.maxAgeMs }, 'recording every answer for spotwatch replay');
  return recorder;
}
