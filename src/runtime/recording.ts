/**
 * The recording the configuration asks for (`record.dir`, which `spotwatch run --record DIR`
 * sets over the file's, at the start and at every reload): its options, and the engine's
 * recorder through starts and reloads.
 */
import { resolve } from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../lib/logger';
import { Recorder, type RecordOptions } from '../poll/recording/recorder';
import type { PollState } from '../poll/state';

function recordOptions(config: Config): RecordOptions | undefined {
  const dir = config.record.dir;
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
export function recorderFor(current: Recorder | undefined, config: Config, state: PollState, now: number, logger: Logger): Recorder | undefined {
  const options = recordOptions(config);
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
