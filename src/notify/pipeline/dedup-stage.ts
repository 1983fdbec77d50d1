import { decide, type LogEntry } from '../../alerts/dedup';
import { sinceTold, type Stage } from './stage';

/**
 * Tells a receiver only what is news to it, by the notification log (Alertmanager's dedup
 * stage; alerts/dedup.ts decides): goes on with the alerts to tell (none when only the log
 * changes), or stops when neither a notification nor the log would change. Sets `told` (the log
 * as read) and `entry` (the log to write).
 */
export function dedupStage(logEntry: (receiver: string, groupKey: string) => LogEntry | undefined): Stage {
  return {
    name: 'dedup',
    exec(ctx, alerts) {
      const { group, now, sendResolved } = ctx;
      const told = logEntry(ctx.receiver, group.key);
      ctx.told = told;
      const firing = alerts.filter((a) => a.status === 'firing').map((a) => a.fingerprint);
      const resolved = alerts.filter((a) => a.status === 'resolved').map((a) => a.fingerprint);
      const decision = decide(told, firing, resolved, sendResolved, group.route.repeatIntervalMs, now, told === undefined ? 0 : sinceTold(ctx, told));
      if (!decision.send && sameEntry(told, decision.entry)) return undefined;
      ctx.entry = decision.entry;
      if (!decision.send) return [];
      return sendResolved ? alerts : alerts.filter((a) => a.status === 'firing');
    },
  };
}

function sameEntry(a: LogEntry | undefined, b: LogEntry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.at === b.at && sameList(a.firing, b.firing) && sameList(a.resolved, b.resolved);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
