import type { Muter } from '../../alerts/silence';
import type { Logger } from '../../lib/logger';
import type { Stage } from './stage';

/** Drops the alerts a silence or a maintenance window mutes at the flush's `now` (alerts/silence.ts decides). */
export function muteStage(muter: Muter, logger: Logger): Stage {
  return {
    name: 'mute',
    exec: (ctx, alerts) =>
      alerts.filter((a) => {
        const muted = muter.mutedBy(a.labels, ctx.now);
        if (muted !== undefined) logger.debug({ fingerprint: a.fingerprint, receiver: ctx.receiver, muted }, 'alert muted');
        return muted === undefined;
      }),
  };
}
