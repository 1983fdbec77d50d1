import { z } from 'zod';
import type { ReceiverPlugin } from '../plugin';
import { logNotifier } from './log';

/** `log: {}`, `log: true` and a bare `log:` all mean "write notifications to the log". */
const logSchema = z.preprocess((v) => (v === true || v === null ? {} : v), z.object({}).strict());

type LogConfig = z.output<typeof logSchema>;

/** `log`: one structured line per alert in the daemon's log; the receiver used when none is configured. */
export const log = {
  kind: 'log',
  schema: () => logSchema,
  defaults: {},
  redact: {},
  create: (name, _c, deps) => logNotifier(name, deps.logger.child({ component: 'notify' })),
} satisfies ReceiverPlugin<LogConfig>;
