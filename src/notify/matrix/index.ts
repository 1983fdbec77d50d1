import type { ReceiverPlugin } from '../plugin';
import { matrixNotifier } from './matrix';
import { MATRIX_DEFAULTS, matrixSchema, type MatrixConfig } from './schema';

/** `matrix: { homeserver, room_id, access_token, msgtype }`: each group as events (`m.text`, or `m.notice`) in a room, idempotent by transaction id; the token is a secret. */
export const matrix = {
  kind: 'matrix',
  schema: () => matrixSchema,
  defaults: MATRIX_DEFAULTS,
  redact: { homeserver: 'url', room_id: 'keep', access_token: 'secret', timeout: 'keep', msgtype: 'keep' },
  create: (name, c, deps) => matrixNotifier(name, c, deps),
} satisfies ReceiverPlugin<MatrixConfig>;
