/**
 * What outlives a request handler: delayed answers and hung or streaming responses. close()
 * ends them all, so a test or the CLI never waits on a connection it broke on purpose.
 */
import type { ServerResponse } from 'node:http';
import { systemScheduler } from '../../lib/scheduler';

export interface Live {
  /** Run fn after ms, unless disposed first. */
  later(ms: number, fn: () => void): void;
  /** Keep res until its client goes away or dispose() destroys it. */
  hold(res: ServerResponse): void;
  dispose(): void;
}

export function createLive(): Live {
  const timers = new Set<() => void>();
  const held = new Set<ServerResponse>();
  return {
    later: (ms, fn) => {
      const cancel = systemScheduler.after(ms, () => {
        timers.delete(cancel);
        fn();
      });
      timers.add(cancel);
    },
    hold: (res) => {
      held.add(res);
      res.on('close', () => held.delete(res));
    },
    dispose: () => {
      for (const cancel of timers) cancel();
      timers.clear();
      for (const res of held) res.destroy();
      held.clear();
    },
  };
}
