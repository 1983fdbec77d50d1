import type { Stage } from './stage';

/** Drops the alerts a firing source inhibits (alerts/inhibit.ts decides; the index is the flush's). */
export function inhibitStage(): Stage {
  return {
    name: 'inhibit',
    exec: (ctx, alerts) => alerts.filter((a) => !ctx.sources.inhibits(a)),
  };
}
