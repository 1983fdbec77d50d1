import type { LogEntry } from '../../alerts/dedup';
import type { Muter } from '../../alerts/silence';
import { sinceTold, type Stage } from './stage';

interface Judged {
  group: string;
  version: number;
  sources: string;
  entry: LogEntry | undefined;
}

/**
 * Around a receiver's stages: a group that has not changed since its last flush, judged under the
 * same inhibitions and with nothing that could mute, comes to the same decision: no news, unless
 * a repeat is due. Re-deriving 8,000 alerts at every group_interval of a long outage is skipped
 * (and the notification log is not read).
 */
export class SkipUnchanged {
  readonly name = 'skip-unchanged';
  /** Per receiver and group, what its last flush was judged on. */
  private readonly judged = new Map<string, Judged>();

  constructor(private readonly muter: Muter) {}

  /** `inner` behind this stage: run only for a group that changed, and remembered afterwards. */
  around(inner: Stage): Stage {
    return {
      name: `${this.name} (${inner.name})`,
      exec: (ctx, alerts) => {
        const key = `${ctx.receiver}\u0000${ctx.group.key}`;
        const memo = this.judged.get(key);
        const signature = ctx.sources.signature();
        const repeatDue = memo?.entry !== undefined && memo.entry.firing.length > 0 && sinceTold(ctx, memo.entry) >= ctx.group.route.repeatIntervalMs;
        if (memo !== undefined && memo.version === ctx.group.version && memo.sources === signature && this.muter.idle && !repeatDue) return undefined;
        const out = inner.exec(ctx, alerts);
        // Nothing to write: the log stays as it was read.
        this.judged.set(key, { group: ctx.group.key, version: ctx.group.version, sources: signature, entry: ctx.item === undefined ? ctx.told : ctx.item.entry });
        return out;
      },
    };
  }

  /** Forgets everything (a reload: routes, receivers or rules changed). */
  clear(): void {
    this.judged.clear();
  }

  /** Forgets groups that are gone, once there are more than `limit` entries. */
  prune(limit: number, live: (group: string) => boolean): void {
    if (this.judged.size <= limit) return;
    for (const [k, memo] of this.judged) if (!live(memo.group)) this.judged.delete(k);
  }
}
